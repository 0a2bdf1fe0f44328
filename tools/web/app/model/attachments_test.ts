import { assertEquals } from "../../../../tests/assert.ts";
import { decodeCommand } from "../../../../protocol/mod.ts";
import { fromBase64 } from "../net/base64.ts";
import { attach, type Attached, imageSrc, MAX_IMAGE_BYTES } from "./attachments.ts";

// An image picked or pasted onto the composer: read as the prompt's attachment (spec: prompt's
// `attachments`), or refused in words naming the file and why, before anything is sent.

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);

/** A file of `size` bytes whose bytes are never read unless the reader gets that far. */
function sized(name: string, type: string, size: number) {
  return {
    name,
    type,
    size,
    arrayBuffer: () => Promise.resolve(new ArrayBuffer(size)),
  };
}

Deno.test("attachments: an image is read as the prompt carries it", async () => {
  const got = await attach(new File([PNG], "shot.png", { type: "image/png" }), []);
  if (!got.ok) throw new Error(got.why);
  assertEquals(got.attached.name, "shot.png");
  assertEquals(got.attached.attachment.mime_type, "image/png");
  assertEquals(fromBase64(got.attached.attachment.data), PNG);
  assertEquals(imageSrc(got.attached.attachment).startsWith("data:image/png;base64,"), true);
  // What the composer sends decodes with protocol/'s own reader.
  const key = { org: "o", project: "p", label: "lead" };
  const fields = { key, text: "look", attachments: [got.attached.attachment] };
  assertEquals(decodeCommand({ prompt: fields }).fields, fields);
});

Deno.test("attachments: another type, an image too large, a prompt too heavy: said, not read", async () => {
  assertEquals(await attach(new File(["x"], "notes.txt", { type: "text/plain" }), []), {
    ok: false,
    why: "notes.txt is text/plain: a prompt carries PNG, JPEG, GIF or WebP images",
  });
  assertEquals(await attach(new File([PNG], "", { type: "" }), []), {
    ok: false,
    why: "the pasted image is of no known type: a prompt carries PNG, JPEG, GIF or WebP images",
  });
  assertEquals(await attach(sized("big.jpg", "image/jpeg", MAX_IMAGE_BYTES + 1), []), {
    ok: false,
    why: "big.jpg is 5.0 MB: an image may be at most 5.0 MB",
  });
  // 15 MB of base64 already held: a fourth image's 1.3 MB would not fit one frame; 10 MB would.
  const held: Attached[] = [1, 2, 3].map((i) => ({
    name: `a${i}.png`,
    attachment: { mime_type: "image/png", data: "A".repeat(5 * 1024 * 1024) },
  }));
  const fourth = await attach(sized("d.png", "image/png", 1024 * 1024), held);
  assertEquals(fourth, {
    ok: false,
    why: "d.png would take the prompt over the 16.0 MB one message to forge may carry: send " +
      "it with another prompt",
  });
  assertEquals((await attach(sized("d.png", "image/png", 1024 * 1024), held.slice(1))).ok, true);
});
