import type { ComponentType } from "preact";
import { useEffect, useState } from "preact/hooks";

/**
 * A view whose code is fetched the first time it is drawn: the bundle is split so the home's
 * first draw does not parse the conversation's markdown and highlighting or the terminal's
 * xterm.js. Until the code arrives the view says so; when it cannot be fetched (the network
 * went, or a new build replaced the chunk) the view says that, and a Retry asks again.
 */
export function lazy<P extends object>(
  load: () => Promise<ComponentType<P>>,
): ComponentType<P> {
  let loaded: ComponentType<P> | null = null;
  let failed: string | null = null;
  let pending: Promise<void> | null = null;
  const fetchCode = () =>
    pending ??= load().then(
      (c) => {
        loaded = c;
        failed = null;
      },
      (err) => {
        failed = err instanceof Error ? err.message : String(err);
        pending = null;
      },
    );
  return function Lazy(props: P) {
    const [, bump] = useState(0);
    const redraw = () => bump((n) => n + 1);
    useEffect(() => {
      if (!loaded && !failed) void fetchCode().then(redraw);
    }, []);
    const View = loaded;
    if (View) return <View {...props} />;
    if (failed) {
      return (
        <p class="error" data-testid="lazy-failed">
          This view's code could not be loaded ({failed}).{" "}
          <button type="button" onClick={() => void fetchCode().then(redraw)}>Retry</button>
        </p>
      );
    }
    return <p class="muted">Loading…</p>;
  };
}
