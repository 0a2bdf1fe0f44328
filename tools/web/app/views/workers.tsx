import { useState } from "preact/hooks";
import {
  DespawnResult,
  sameSlot,
  type Slot,
  SpawnWorkerBody,
  type Wire,
  type WrappedPrompt,
} from "../../../../protocol/mod.ts";
import { lostWords } from "../net/replies.ts";
import { lifecycleWords } from "./lifecycle_words.ts";
import { client, pageHref, useApp } from "./use.ts";
import { Said } from "../draw/said.tsx";

/** What the last spawn or despawn press came back as, in words. */
type Said = { ok: boolean; text: string; force?: string } | null;

/**
 * A lead's workers under it: each with its state, a close, a despawn (a dirty tree is refused in
 * the server's words, with a choice to force it), and a message box; a spawn form above them.
 * Spawn and despawn answer through their reply (spec: command > reply_to); a message is
 * delivered as a peer envelope (deliver_worker_prompt, deliver_worker_prompt_to_lead).
 */
export function Workers(props: { lead: Slot }) {
  const s = useApp();
  const lead = props.lead;
  const [label, setLabel] = useState("");
  const [charter, setCharter] = useState("");
  const [said, setSaid] = useState<Said>(null);
  const [open, setOpen] = useState(false);
  const workers = (s.home?.agents ?? []).filter((a) =>
    a.slot.org === lead.org && a.slot.project === lead.project && a.slot.label !== "lead"
  );
  const spawn = async () => {
    const body = await client().commandReply("spawn_worker", {
      project_key: lead.project,
      label: label.trim(),
      charter: charter.trim(),
      spawned_by: lead,
    }).catch((err) => new ReplyFailed(lostWords(err)));
    setSaid(body instanceof ReplyFailed ? { ok: false, text: body.why } : spawnWords(body));
  };
  return (
    <details
      class="workers"
      data-testid="workers"
      open={open || workers.length > 0 || said !== null}
      onToggle={(e) => setOpen(e.currentTarget.open)}
    >
      <summary>
        Workers <span class="muted">{workers.length}</span>
      </summary>
      <ul>
        {workers.map((w) => (
          <WorkerRow
            key={w.slot.label}
            lead={lead}
            slot={w.slot}
            lifecycle={w.lifecycle}
            tree={w.tree}
            onSaid={setSaid}
          />
        ))}
      </ul>
      <form
        class="spawn"
        onSubmit={(e) => {
          e.preventDefault();
          if (label.trim()) void spawn();
        }}
      >
        <input
          data-testid="worker-label"
          placeholder="worker label"
          value={label}
          onInput={(e) => setLabel(e.currentTarget.value)}
        />
        <input
          data-testid="worker-charter"
          placeholder="its charter"
          value={charter}
          onInput={(e) => setCharter(e.currentTarget.value)}
        />
        <button type="submit" data-testid="worker-spawn">Spawn</button>
      </form>
      {said && (
        <div class={`notice ${said.ok ? "ok" : ""}`} data-testid="worker-said" role="status">
          <Said text={said.text} />
          {said.force && (
            <button
              type="button"
              data-testid="worker-force"
              onClick={() => despawn(lead, said.force!, true, setSaid)}
            >
              Despawn anyway
            </button>
          )}
        </div>
      )}
    </details>
  );
}

function WorkerRow(
  props: {
    lead: Slot;
    slot: Slot;
    lifecycle: string;
    tree: string | null;
    onSaid: (s: Said) => void;
  },
) {
  const { lead, slot } = props;
  const [words, setWords] = useState("");
  const s = useApp();
  const mine = s.seat && sameSlot(s.seat.slot, slot);
  const send = (toLead: boolean) => {
    const wrapped: WrappedPrompt = {
      id: crypto.randomUUID(),
      kind: "message",
      sender_name: "you",
      sender_org: lead.org,
      body: words.trim(),
    };
    if (toLead) {
      client().command("deliver_worker_prompt_to_lead", {
        caller: slot,
        target_lead_key: lead,
        wrapped,
      });
    } else {
      client().command("deliver_worker_prompt", {
        caller: lead,
        project_key: lead.project,
        target_label: slot.label,
        wrapped,
      });
    }
    setWords("");
  };
  const name = `${slot.org}/${slot.project}/${slot.label}`;
  return (
    <li class="worker" data-testid={`worker-${slot.label}`}>
      <a href={pageHref(client(), `seat/${name}`)}>{slot.label}</a>
      <span class={`lifecycle ${props.lifecycle.toLowerCase()}`} data-testid="worker-state">
        {lifecycleWords(props.lifecycle)}
      </span>
      {props.tree && <span class="muted">{props.tree}</span>}
      {mine && <span class="muted">(on screen)</span>}
      <input
        placeholder={`message ${slot.label}`}
        data-testid="worker-message"
        value={words}
        onInput={(e) => setWords(e.currentTarget.value)}
      />
      <button
        type="button"
        data-testid="worker-send"
        disabled={!words.trim()}
        onClick={() => send(false)}
      >
        To {slot.label}
      </button>
      <button
        type="button"
        data-testid="worker-send-lead"
        disabled={!words.trim()}
        onClick={() => send(true)}
      >
        To its lead
      </button>
      <button
        type="button"
        data-testid="worker-close"
        onClick={() =>
          client().command("close_worker", { project_key: lead.project, label: slot.label })}
      >
        Close
      </button>
      <button
        type="button"
        data-testid="worker-despawn"
        onClick={() => despawn(lead, slot.label, false, props.onSaid)}
      >
        Despawn
      </button>
    </li>
  );
}

/** A reply that did not come, held apart from any body the server could send. */
class ReplyFailed {
  constructor(readonly why: string) {}
}

async function despawn(lead: Slot, label: string, force: boolean, onSaid: (s: Said) => void) {
  const body = await client()
    .commandReply("despawn_worker", { project_key: lead.project, label, force })
    .catch((err) => new ReplyFailed(lostWords(err)));
  onSaid(body instanceof ReplyFailed ? { ok: false, text: body.why } : despawnWords(label, body));
}

/** spawn_worker's reply in words: the worker and its worktree, or the refusal's own sentence. */
function spawnWords(body: Wire): Said {
  const r = SpawnWorkerBody.safeParse(body);
  if (!r.success) {
    return { ok: false, text: "The server's answer to the spawn was not understood." };
  }
  if ("Err" in r.data) return { ok: false, text: r.data.Err };
  const ok = r.data.Ok;
  return {
    ok: true,
    text: `Spawned (${ok.session_choice}) in ${ok.worktree ?? "the project"}` +
      (ok.durability_warning ? `; ${ok.durability_warning}` : "") +
      (ok.rate_limited_account ? `; ${ok.rate_limited_account} is rate limited` : ""),
  };
}

/** despawn_worker's reply in words; a blocked one offers the force. */
function despawnWords(label: string, body: Wire): Said {
  const r = DespawnResult.safeParse(body);
  if (!r.success) {
    return { ok: false, text: "The server's answer to the despawn was not understood." };
  }
  const d = r.data;
  if (d === "not_found") return { ok: false, text: `${label} is not a worker of this lead.` };
  if ("blocked" in d) return { ok: false, text: d.blocked.reason, force: label };
  if ("failed" in d) return { ok: false, text: d.failed.reason };
  const warn = [d.despawned.worktree_cleanup_warning, d.despawned.branch_cleanup_warning]
    .filter(Boolean).join("; ");
  return { ok: true, text: `Despawned ${label}.${warn ? ` ${warn}` : ""}` };
}
