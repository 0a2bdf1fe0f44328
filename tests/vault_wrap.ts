/**
 * What a client's platform authenticator does with the enrolment material, for tests: wraps it
 * under a key forge never sees (AES-GCM here), so the blob forge stores is opaque to it.
 */
export class Wrapper {
  private constructor(private readonly key: CryptoKey) {}

  static async make(): Promise<Wrapper> {
    const key = await crypto.subtle.generateKey({ name: "AES-GCM", length: 256 }, false, [
      "encrypt",
      "decrypt",
    ]);
    return new Wrapper(key);
  }

  async seal(material: { refresh_token: string; user_key: string }): Promise<string> {
    const iv = crypto.getRandomValues(new Uint8Array(12));
    const plain = new TextEncoder().encode(JSON.stringify(material));
    const ct = new Uint8Array(
      await crypto.subtle.encrypt({ name: "AES-GCM", iv }, this.key, plain),
    );
    const out = new Uint8Array(12 + ct.length);
    out.set(iv);
    out.set(ct, 12);
    return btoa(String.fromCharCode(...out));
  }

  async open(blob: string): Promise<{ refresh_token: string; user_key: string }> {
    const bytes = Uint8Array.from(atob(blob), (c) => c.charCodeAt(0));
    const plain = await crypto.subtle.decrypt(
      { name: "AES-GCM", iv: bytes.slice(0, 12) },
      this.key,
      bytes.slice(12),
    );
    return JSON.parse(new TextDecoder().decode(plain));
  }
}
