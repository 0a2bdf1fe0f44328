import { useEffect, useRef, useState } from "preact/hooks";
import type { SlashCommand } from "../../../../protocol/mod.ts";
import { bare, pickedText, slashKey, slashMatches } from "../model/slash_commands.ts";

/** The composer's slash list: the rows offered for the text, the marked one, and its keys. */
export interface SlashMenu {
  rows: SlashCommand[];
  marked: number;
  /** A key the list took (arrows, Enter, Tab, Escape while open); the box must not also. */
  keydown(e: { key: string }): boolean;
  pick(row: SlashCommand): void;
}

/**
 * Offers the CLI's commands while the composer's text starts with "/" (spec: session >
 * slash_commands). A picked command becomes the text, sent as a prompt's words like any other:
 * forge hands a slash command to the CLI as the prompt's text.
 */
export function useSlashMenu(
  text: string,
  commands: readonly SlashCommand[],
  setText: (t: string) => void,
): SlashMenu {
  const [marked, setMarked] = useState(0);
  const [closedFor, setClosedFor] = useState<string | null>(null);
  const rows = closedFor === text ? [] : slashMatches(text, commands);
  useEffect(() => setMarked(0), [text]);
  const pick = (row: SlashCommand) => setText(pickedText(row));
  return {
    rows,
    marked,
    pick,
    keydown(e) {
      const k = slashKey(e.key, marked, rows.length);
      if (!k) return false;
      if (k.kind === "move") setMarked(k.to);
      else if (k.kind === "pick") pick(rows[Math.min(marked, rows.length - 1)]);
      else setClosedFor(text);
      return true;
    },
  };
}

/** The list above the box: each row its name, its arguments' hint and what it does. */
export function SlashList(props: { menu: SlashMenu; refocus: () => void }) {
  const { rows, marked, pick } = props.menu;
  const list = useRef<HTMLUListElement>(null);
  // The list scrolls (a CLI advertises dozens): the row the arrows marked is kept in view.
  useEffect(() => {
    list.current?.children[marked]?.scrollIntoView({ block: "nearest" });
  }, [marked, rows.length]);
  if (rows.length === 0) return null;
  return (
    <ul class="slash-list" role="listbox" data-testid="slash-list" ref={list}>
      {rows.map((c, i) => (
        <li
          key={c.name}
          role="option"
          aria-selected={i === marked}
          class={i === marked ? "on" : ""}
          data-testid={`slash-${bare(c.name)}`}
          // The box keeps its focus (and a phone its keyboard) through a press on a row.
          onPointerDown={(e) => e.preventDefault()}
          onClick={() => {
            pick(c);
            props.refocus();
          }}
        >
          <code>/{bare(c.name)}</code>
          {c.input_hint && <span class="muted">{c.input_hint}</span>}
          {c.description && <span class="slash-about">{c.description}</span>}
        </li>
      ))}
    </ul>
  );
}
