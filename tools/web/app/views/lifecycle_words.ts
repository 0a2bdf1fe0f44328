/**
 * A seat's lifecycle as its chip and the project's summary say it. Most read as the catalogue's
 * enum spells them (Idle, Running, Failed); the two about a login say what the person must do,
 * not the enum's CamelCase: `LoggedOut` (its CLI holds no credential, so every turn ends "Not
 * logged in") and `AuthRequired` (its upstream refused the credential it holds). spec: What a
 * subject carries > home, agents: lifecycle.
 */
export function lifecycleWords(lifecycle: string): string {
  if (lifecycle === "LoggedOut") return "Needs a login";
  if (lifecycle === "AuthRequired") return "Login refused";
  return lifecycle;
}
