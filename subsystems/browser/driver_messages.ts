/**
 * What passes between the page driver (driver.ts) and its Worker (driver_worker.ts): the
 * operations by name with their arguments and answers, and the messages each side posts.
 */

/** One field of browser_fill_form. */
export interface FillField {
  target: string;
  name: string;
  type: "textbox" | "checkbox" | "radio" | "combobox" | "slider";
  value: string;
}

/** Every operation the worker performs, by name: its arguments and what it answers. */
export interface DriverOps {
  /** The aria snapshot with refs (`mode: "ai"`) of the page or of one element. */
  snapshot: {
    args: { target?: string; depth?: number; boxes?: boolean };
    result: { url: string; title: string; yaml: string };
  };
  click: {
    args: {
      target: string;
      doubleClick?: boolean;
      button?: "left" | "right" | "middle";
      modifiers?: string[];
      force?: boolean;
    };
    result: null;
  };
  hover: { args: { target: string }; result: null };
  type: {
    args: { target: string; text: string; slowly?: boolean; submit?: boolean };
    result: null;
  };
  fillForm: { args: { fields: FillField[] }; result: null };
  select: { args: { target: string; values: string[] }; result: string[] };
  drag: { args: { startTarget: string; endTarget: string }; result: null };
  drop: {
    args: { target: string; paths?: string[]; data?: Record<string, string> };
    result: null;
  };
  press: { args: { key: string }; result: null };
  /** `fn` is `() => ...` (the page) or `(element) => ...` (the target). */
  evaluate: { args: { fn: string; target?: string }; result: { json: string } };
  waitFor: {
    args: { text?: string; textGone?: string; expression?: string; timeoutMs: number };
    result: null;
  };
  formState: { args: { target?: string }; result: string };
  /** A picture of the viewport, the whole page, or one element. */
  shot: {
    args: {
      target?: string;
      type: "png" | "jpeg" | "webp";
      scale: "css" | "device";
      fullPage?: boolean;
    };
    result: Uint8Array;
  };
  /** An agent's Playwright snippet `async (page) => ...` (browser_run_code_unsafe). */
  runCode: { args: { code: string }; result: { json: string } };
}
export type DriverOp = keyof DriverOps;

/** What goes to the worker. `page` is the tab's CDP target id; `boundMs` the ask's bound. */
export type DriverAsk =
  | { kind: "init"; wsUrl: string; artifactsDir: string }
  | { kind: "ask"; id: number; op: DriverOp; page: string; args: unknown; boundMs: number }
  | { kind: "ping" };

/** What comes back: attached, an answer, a refusal in forge's words, a pong, or the end. */
export type DriverReply =
  | { kind: "attached" }
  | { kind: "answer"; id: number; ok: true; value: unknown }
  | { kind: "answer"; id: number; ok: false; why: string }
  | { kind: "pong" }
  | { kind: "gone"; why: string };
