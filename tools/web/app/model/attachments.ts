import { z } from "zod";
import { ImageAttachment } from "../../../../protocol/mod.ts";
import { toBase64 } from "../net/base64.ts";

type Image = z.infer<typeof ImageAttachment>;

/** An image the person attached to the prompt being written: what crosses, and its name. */
export interface Attached {
  name: string;
  attachment: Image;
}

/** The image types a prompt carries (protocol/'s ImageAttachment). spec: prompt. */
export const IMAGE_TYPES: readonly string[] = ImageAttachment.shape.mime_type.options;

/** The largest image one attachment carries: the Messages API refuses a larger one. */
export const MAX_IMAGE_BYTES = 5 * 1024 * 1024;
/** The inbound bound on one frame to forge; the images' base64 and the words share it. */
export const FRAME_BOUND_BYTES = 16 * 1024 * 1024;
/** Room the prompt's words and the frame's JSON keep beside the images. */
const ROOM_BYTES = 256 * 1024;

/** `n` bytes, said as a person reads a size. */
function size(n: number): string {
  return n < 1024 * 1024 ? `${Math.ceil(n / 1024)} KB` : `${(n / 1024 / 1024).toFixed(1)} MB`;
}

/**
 * Reads one picked or pasted file as an attachment, or says in words why it cannot be one: a
 * type the prompt does not carry, or an image over the bound. `held` is what is attached already,
 * so the whole stays under the bound on one frame to forge.
 */
export async function attach(
  file: { name: string; type: string; size: number; arrayBuffer(): Promise<ArrayBuffer> },
  held: readonly Attached[],
): Promise<{ ok: true; attached: Attached } | { ok: false; why: string }> {
  const name = file.name || "the pasted image";
  const mime = ImageAttachment.shape.mime_type.safeParse(file.type);
  if (!mime.success) {
    return {
      ok: false,
      why: `${name} is ${file.type || "of no known type"}: a prompt carries PNG, JPEG, GIF or ` +
        "WebP images",
    };
  }
  if (file.size > MAX_IMAGE_BYTES) {
    return {
      ok: false,
      why: `${name} is ${size(file.size)}: an image may be at most ${size(MAX_IMAGE_BYTES)}`,
    };
  }
  const crossing = held.reduce((n, a) => n + a.attachment.data.length, 0) +
    Math.ceil(file.size / 3) * 4;
  if (crossing > FRAME_BOUND_BYTES - ROOM_BYTES) {
    return {
      ok: false,
      why: `${name} would take the prompt over the ${size(FRAME_BOUND_BYTES)} one message to ` +
        "forge may carry: send it with another prompt",
    };
  }
  const data = toBase64(new Uint8Array(await file.arrayBuffer()));
  return { ok: true, attached: { name, attachment: { data, mime_type: mime.data } } };
}

/** An attachment as an image the page may draw (its policy allows `data:` images). */
export function imageSrc(a: Image): string {
  return `data:${a.mime_type};base64,${a.data}`;
}
