/**
 * `~` and `~/...` in a configured path name the user's home. Without a home the path is kept as
 * written; any other path is returned unchanged.
 */
export function expandHome(path: string, home: string | null): string {
  if (home === null || home === "") return path;
  return path === "~" ? home : path.startsWith("~/") ? `${home}/${path.slice(2)}` : path;
}
