import { structuredPatch } from "diff";
import type { ComponentChildren } from "preact";
import { z } from "zod";
import type { ToolRow } from "../model/fold.ts";
import { Code } from "./code.tsx";
import { AskedQuestions } from "./question_answers.ts";
import { QuestionCall } from "./question_call.tsx";

/** Output longer than this many lines is folded to its first few, with the rest a click away. */
const FOLD_LINES = 12;
const FOLD_CHARS = 2_000;
const SHOWN_LINES = 6;

const Bash = z.object({ command: z.string(), description: z.string().optional() }).loose();
const Edit = z.object({ file_path: z.string(), old_string: z.string(), new_string: z.string() })
  .loose();
const MultiEdit = z.object({
  file_path: z.string(),
  edits: z.array(z.object({ old_string: z.string(), new_string: z.string() }).loose()),
}).loose();
const Write = z.object({ file_path: z.string(), content: z.string() }).loose();
const Read = z.object({
  file_path: z.string(),
  offset: z.number().optional(),
  limit: z.number().optional(),
}).loose();
const Search = z.object({ pattern: z.string(), path: z.string().optional() }).loose();

/**
 * One tool call drawn as what it did: a Bash call as its command, an Edit as a diff of the
 * file, a Read as its path and line range, a Write as the file it wrote, an AskUserQuestion as
 * its questions and the answers chosen; anything else as its input. The output follows, folded
 * when long, then what the caller adds (a door to the output a backgrounded call streams).
 */
export function ToolCall(props: { call: ToolRow; children?: ComponentChildren }) {
  const c = props.call;
  // An answered question reads as the questions and the answers chosen, not as JSON.
  const asked = c.name === "AskUserQuestion" ? AskedQuestions.safeParse(c.input) : null;
  return (
    <div class="tool" data-testid="tool" data-tool={c.name}>
      {asked?.success ? <QuestionCall input={asked.data} result={c.result?.text ?? null} /> : (
        <>
          <ToolInput name={c.name} input={c.input} />
          {c.result && <Output text={c.result.text} error={c.result.isError} />}
        </>
      )}
      {props.children}
    </div>
  );
}

/** A tool call's input drawn as what it does (see ToolCall); a permission ask shows it so. */
export function ToolInput(props: { name: string; input: unknown }) {
  const { name, input } = props;
  const bash = name === "Bash" ? Bash.safeParse(input) : null;
  if (bash?.success) {
    return (
      <div class="tool-head" data-testid="tool-bash">
        {bash.data.description && <div class="muted">{bash.data.description}</div>}
        <Code text={`$ ${bash.data.command}`} language="bash" />
      </div>
    );
  }
  const edit = name === "Edit" ? Edit.safeParse(input) : null;
  if (edit?.success) {
    const d = edit.data;
    return <FileDiff path={d.file_path} edits={[d]} />;
  }
  const multi = name === "MultiEdit" ? MultiEdit.safeParse(input) : null;
  if (multi?.success) return <FileDiff path={multi.data.file_path} edits={multi.data.edits} />;
  const read = name === "Read" ? Read.safeParse(input) : null;
  if (read?.success) {
    const { file_path, offset, limit } = read.data;
    const from = offset ?? 1;
    const range = limit !== undefined
      ? `lines ${from}–${from + limit - 1}`
      : offset !== undefined
      ? `from line ${from}`
      : "whole file";
    return (
      <div class="tool-head" data-testid="tool-read">
        <b>Read</b> <code>{file_path}</code> <span class="muted">{range}</span>
      </div>
    );
  }
  const write = name === "Write" ? Write.safeParse(input) : null;
  if (write?.success) {
    return (
      <div class="tool-head">
        <b>Write</b> <code>{write.data.file_path}</code>
        <Output text={write.data.content} error={false} path={write.data.file_path} />
      </div>
    );
  }
  const search = Search.safeParse(input);
  if ((name === "Grep" || name === "Glob") && search.success) {
    return (
      <div class="tool-head">
        <b>{name}</b> <code>{search.data.pattern}</code>
        {search.data.path && <span class="muted">in {search.data.path}</span>}
      </div>
    );
  }
  return (
    <div class="tool-head">
      <b>{name}</b>
      <Code text={JSON.stringify(input, null, 2) ?? ""} language="json" />
    </div>
  );
}

/** An edit's old and new strings as a unified diff, highlighted as one. */
function FileDiff(props: { path: string; edits: { old_string: string; new_string: string }[] }) {
  const text = props.edits.map((e) => {
    const patch = structuredPatch(props.path, props.path, e.old_string, e.new_string, "", "", {
      context: 3,
    });
    return patch.hunks.map((h) => h.lines.join("\n")).join("\n");
  }).join("\n");
  return (
    <div class="tool-head" data-testid="tool-edit">
      <b>Edit</b> <code>{props.path}</code>
      <Code text={text} language="diff" />
    </div>
  );
}

/** A tool's output: whole when short, else its first lines with the rest folded. */
function Output(props: { text: string; error: boolean; path?: string }) {
  const text = props.text || "(no output)";
  const lines = text.split("\n");
  const cls = props.error ? "tool-out error" : "tool-out";
  const language = props.path ?? null;
  if (lines.length <= FOLD_LINES && text.length <= FOLD_CHARS) {
    return <Code text={text} language={language} class={cls} testid="tool-out" />;
  }
  return (
    <details class="folded" data-testid="tool-folded">
      <summary>
        <Code text={lines.slice(0, SHOWN_LINES).join("\n")} language={language} class={cls} />
        <span class="muted">{lines.length} lines · show all</span>
      </summary>
      <Code text={text} language={language} class={cls} testid="tool-out" />
    </details>
  );
}
