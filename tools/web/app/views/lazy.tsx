import type { ComponentType } from "preact";
import { useEffect, useState } from "preact/hooks";

/**
 * A view whose code is fetched the first time it is drawn: the bundle is split so the home's
 * first draw does not parse the conversation's markdown and highlighting or the terminal's
 * xterm.js. Until the code arrives the view says so.
 */
export function lazy<P extends object>(
  load: () => Promise<ComponentType<P>>,
): ComponentType<P> {
  let loaded: ComponentType<P> | null = null;
  let pending: Promise<void> | null = null;
  return function Lazy(props: P) {
    const [, bump] = useState(0);
    pending ??= load().then((c) => {
      loaded = c;
    });
    useEffect(() => {
      if (!loaded) void pending!.then(() => bump((n) => n + 1));
    }, []);
    const View = loaded;
    return View ? <View {...props} /> : <p class="muted">Loading…</p>;
  };
}
