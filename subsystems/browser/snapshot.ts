/**
 * The page-side half of the agent's tools: a text snapshot of what a person could act on, each
 * actionable element tagged `[ref=eN]` (the `target` the other tools take, as @playwright/mcp's
 * snapshot refs are), kept in `window.__forgeRefs` until the next snapshot.
 */
export const SNAPSHOT_JS = `(() => {
  const refs = new Map();
  window.__forgeRefs = refs;
  let n = 0;
  const lines = [];
  const roleOf = (el) => {
    const explicit = el.getAttribute("role");
    if (explicit) return explicit;
    const tag = el.tagName.toLowerCase();
    const type = (el.getAttribute("type") || "").toLowerCase();
    if (tag === "a" && el.hasAttribute("href")) return "link";
    if (tag === "button" || (tag === "input" && ["button", "submit", "reset"].includes(type))) return "button";
    if (tag === "input" && type === "checkbox") return "checkbox";
    if (tag === "input" && type === "radio") return "radio";
    if (tag === "input" && type === "file") return "button";
    if (tag === "input" && type === "range") return "slider";
    if (tag === "input" || tag === "textarea") return "textbox";
    if (tag === "select") return "combobox";
    if (tag === "option") return "option";
    if (/^h[1-6]$/.test(tag)) return "heading";
    if (tag === "img") return "img";
    if (tag === "li") return "listitem";
    if (tag === "form") return "form";
    return null;
  };
  const nameOf = (el) => {
    const label = el.getAttribute("aria-label") || el.getAttribute("alt") || el.getAttribute("title");
    if (label) return label;
    if (el.id) {
      const l = document.querySelector('label[for="' + CSS.escape(el.id) + '"]');
      if (l) return l.innerText.trim();
    }
    if (el.closest && el.closest("label") && el.tagName !== "LABEL") {
      const t = el.closest("label").innerText.trim();
      if (t) return t;
    }
    if (["INPUT", "TEXTAREA", "SELECT"].includes(el.tagName)) return el.getAttribute("placeholder") || el.getAttribute("name") || "";
    return (el.innerText || el.textContent || "").trim().replace(/\\s+/g, " ").slice(0, 100);
  };
  const visible = (el) => {
    const s = getComputedStyle(el);
    return s.display !== "none" && s.visibility !== "hidden";
  };
  const walk = (el, depth) => {
    if (!visible(el)) return;
    const role = roleOf(el);
    let next = depth;
    if (role) {
      const ref = "e" + (++n);
      refs.set(ref, el);
      let line = "  ".repeat(depth) + "- " + role + ' "' + nameOf(el).replace(/"/g, "'") + '"';
      if (["textbox", "combobox", "slider"].includes(role) && "value" in el) line += ' value="' + String(el.value).slice(0, 100) + '"';
      if (role === "checkbox" || role === "radio") line += el.checked ? " [checked]" : " [unchecked]";
      if (el.disabled) line += " [disabled]";
      lines.push(line + " [ref=" + ref + "]");
      next = depth + 1;
      if (role !== "form" && role !== "listitem" && role !== "combobox") return;
    } else {
      const own = [...el.childNodes].filter((c) => c.nodeType === 3).map((c) => c.textContent.trim()).join(" ").trim();
      if (own && el.tagName !== "SCRIPT" && el.tagName !== "STYLE") lines.push("  ".repeat(depth) + "- text: " + own.slice(0, 200));
    }
    for (const child of el.children) walk(child, next);
  };
  if (document.body) walk(document.body, 0);
  return "- Page URL: " + location.href + "\\n- Page Title: " + document.title + "\\n- Page Snapshot:\\n" + lines.join("\\n");
})()`;

/** A function (as source) finding a tool's target: a snapshot ref, else a CSS selector. */
export const FIND_JS = `function (target) {
  const byRef = window.__forgeRefs && window.__forgeRefs.get(target);
  if (byRef && byRef.isConnected) return byRef;
  try { return document.querySelector(target); } catch { return null; }
}`;

/**
 * A function (as source) reading form state (forge's browser_form_state, spec mcp_tools.md §5):
 * each field of each form under `root` (null = every form) with its value, its control text (the
 * label; a select's chosen option), and the browser's own validity (`validity.valid`, read without
 * checkValidity so no `invalid` event fires). A password shows its length, never its characters.
 */
export const FORM_STATE_JS = `function (root) {
  const refs = window.__forgeRefs;
  const refOf = (el) => {
    if (refs) for (const [r, e] of refs) if (e === el) return " [ref=" + r + "]";
    return "";
  };
  const q = (s) => JSON.stringify(String(s));
  const labelOf = (el) => {
    const own = el.getAttribute("aria-label");
    if (own) return own;
    if (el.labels && el.labels.length) return [...el.labels].map((l) => l.innerText.trim()).join(" ");
    return el.getAttribute("placeholder") || "";
  };
  const skip = ["BUTTON", "FIELDSET", "OUTPUT", "OBJECT"];
  const fieldsOf = (c) => (c.tagName === "FORM" ? [...c.elements] :
    [...c.querySelectorAll("input, select, textarea, [contenteditable]")]).filter((el) =>
      !skip.includes(el.tagName) && !["button", "submit", "reset", "image"].includes(el.type));
  const roots = root ? [root] : [...document.forms];
  if (roots.length === 0) return { refused: "the page has no <form>; pass a container's ref as target" };
  const out = [];
  for (const r of roots) {
    const fields = fieldsOf(r);
    const bad = fields.filter((f) => f.willValidate && !f.validity.valid).length;
    const name = r.getAttribute("name") || r.id || r.getAttribute("aria-label") || "";
    out.push("- " + (r.tagName === "FORM" ? "form" : r.tagName.toLowerCase()) + " " + q(name) +
      " (" + fields.length + " fields" + (bad ? ", " + bad + " invalid" : "") + ")" + refOf(r) + ":");
    for (const el of fields) {
      const kind = el.tagName === "SELECT" ? "select" : el.tagName === "TEXTAREA" ? "textarea" :
        el.tagName === "INPUT" ? el.type : "contenteditable";
      let line = "  - " + kind + " " + q(labelOf(el)) + (el.name ? " name=" + el.name : "");
      if (kind === "checkbox" || kind === "radio") {
        line += el.checked ? " [checked]" : " [unchecked]";
        if (el.value !== "on") line += " value=" + q(el.value);
      } else if (kind === "password") line += " value=(" + el.value.length + " characters)";
      else if (kind === "select") {
        const chosen = [...el.selectedOptions];
        line += " value=" + q(chosen.map((o) => o.value).join(",")) +
          " text=" + q(chosen.map((o) => o.textContent.trim()).join(", "));
      } else if (kind === "file") line += " files=" + q([...el.files].map((f) => f.name).join(", "));
      else if (kind === "contenteditable") line += " text=" + q(el.innerText.slice(0, 200));
      else line += " value=" + q(String(el.value).slice(0, 200));
      if (el.required) line += " [required]";
      if (el.disabled) line += " [disabled]";
      if (el.readOnly) line += " [readonly]";
      if (el.willValidate && !el.validity.valid) line += " [invalid: " + el.validationMessage + "]";
      out.push(line + refOf(el));
    }
  }
  return out.join("\\n");
}`;
