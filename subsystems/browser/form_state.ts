/**
 * The page side of forge's browser_form_state (forge's addition to the browser family of its MCP
 * tools; docs/browser.md): a function, as source, called with a root element (a form or any
 * container) or null for every form of the frame's document, open shadow roots included. Each
 * field is listed with its value, its control text (the label; a select's chosen option) and the
 * browser's own validity (`validity.valid`, read without checkValidity so no `invalid` event
 * fires). A password shows its length, never its characters. Null root and no form answers ""
 * (the frame has none).
 */
export const FORM_STATE_JS = `function (root) {
  const q = (s) => JSON.stringify(String(s));
  const deep = (from, sel) => {
    const out = [...from.querySelectorAll(sel)];
    const walk = (n) => {
      for (const el of n.querySelectorAll("*")) {
        if (el.shadowRoot) { out.push(...el.shadowRoot.querySelectorAll(sel)); walk(el.shadowRoot); }
      }
    };
    walk(from);
    return out;
  };
  const labelOf = (el) => {
    const own = el.getAttribute("aria-label");
    if (own) return own;
    const by = el.getAttribute("aria-labelledby");
    if (by) {
      const home = el.getRootNode();
      const text = by.split(/\\s+/).map((id) => home.getElementById ? home.getElementById(id) :
        document.getElementById(id)).filter(Boolean).map((l) => l.textContent.trim()).join(" ");
      if (text) return text;
    }
    if (el.labels && el.labels.length) return [...el.labels].map((l) => l.innerText.trim()).join(" ");
    return el.getAttribute("placeholder") || "";
  };
  const skip = ["BUTTON", "FIELDSET", "OUTPUT", "OBJECT"];
  const fieldsOf = (c) => (c.tagName === "FORM" ? [...c.elements] :
    deep(c, "input, select, textarea, [contenteditable]")).filter((el) =>
      !skip.includes(el.tagName) && !["button", "submit", "reset", "image", "hidden"].includes(el.type));
  const roots = root ? [root] : deep(document, "form");
  if (roots.length === 0) return "";
  const out = [];
  for (const r of roots) {
    const fields = fieldsOf(r);
    const bad = fields.filter((f) => f.willValidate && !f.validity.valid).length;
    const name = r.getAttribute("name") || r.id || r.getAttribute("aria-label") || "";
    out.push("- " + (r.tagName === "FORM" ? "form" : r.tagName.toLowerCase()) + " " + q(name) +
      " (" + fields.length + " fields" + (bad ? ", " + bad + " invalid" : "") + "):");
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
      out.push(line);
    }
  }
  return out.join("\\n");
}`;
