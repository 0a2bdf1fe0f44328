import { useRef, useState } from "preact/hooks";
import { attach, type Attached, IMAGE_TYPES, imageSrc } from "../model/attachments.ts";
import { Said } from "../draw/said.tsx";

/** The images on the prompt being written, and the words for the last file that could not be. */
export interface AttachState {
  attached: Attached[];
  why: string | null;
  /** Reads picked or pasted files onto the prompt, each refused in words where it cannot be. */
  add(files: File[]): Promise<void>;
  remove(i: number): void;
  /** Sets the images whole: none once a prompt went, a refused prompt's back. */
  set(list: Attached[]): void;
}

/** The composer's images (spec: prompt's `attachments`), one prompt's worth. */
export function useAttachments(): AttachState {
  const [attached, setAttached] = useState<Attached[]>([]);
  const [why, setWhy] = useState<string | null>(null);
  // The newest list, for a read that finishes after another changed it.
  const held = useRef<Attached[]>([]);
  const put = (list: Attached[]) => {
    held.current = list;
    setAttached(list);
  };
  return {
    attached,
    why,
    async add(files) {
      setWhy(null);
      for (const f of files) {
        const got = await attach(f, held.current);
        if (got.ok) put([...held.current, got.attached]);
        else setWhy(got.why);
      }
    },
    remove: (i) => put(held.current.filter((_, at) => at !== i)),
    set(list) {
      put(list);
      setWhy(null);
    },
  };
}

/** The image files a paste carries (a screenshot copied, a file copied in a file manager). */
export function pastedImages(data: DataTransfer | null): File[] {
  return [...data?.files ?? []].filter((f) => f.type.startsWith("image/"));
}

/** The attach button: a file picker for images. */
export function AttachButton(props: { a: AttachState }) {
  const { a } = props;
  const picker = useRef<HTMLInputElement>(null);
  return (
    <>
      <input
        ref={picker}
        type="file"
        accept={IMAGE_TYPES.join(",")}
        multiple
        hidden
        data-testid="attach-input"
        onChange={(e) => {
          const input = e.currentTarget;
          void a.add([...input.files ?? []]).then(() => (input.value = ""));
        }}
      />
      <button type="button" data-testid="attach" onClick={() => picker.current?.click()}>
        Attach image
      </button>
    </>
  );
}

/** The images attached, each removable, and the words for a file that could not be. */
export function AttachedImages(props: { a: AttachState }) {
  const { a } = props;
  return (
    <>
      {a.attached.length > 0 && (
        <ul class="attached" data-testid="attached">
          {a.attached.map((x, i) => (
            <li key={`${i}:${x.name}`}>
              <img src={imageSrc(x.attachment)} alt={x.name} title={x.name} />
              <button
                type="button"
                class="dismiss"
                aria-label={`Remove ${x.name}`}
                onClick={() => a.remove(i)}
              >
                ✕
              </button>
            </li>
          ))}
        </ul>
      )}
      {a.why && (
        <p class="error" data-testid="attach-refused">
          Not attached: <Said text={a.why} />.
        </p>
      )}
    </>
  );
}
