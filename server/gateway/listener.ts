import type { Logger } from "../log.ts";
import { apiError } from "./forward.ts";
import type { ListenerState } from "./wire.ts";

/**
 * Binds the gateway's listener on 127.0.0.1:`port` (0: the OS picks). A taken port is reported
 * as the listener's `bind_error`, never a drift to another port: a CLI pointed at an address
 * nothing serves fails later and illegibly. spec: home > accounts (the listener's ready state
 * and port).
 */
export async function listen(
  port: number,
  handler: (req: Request) => Promise<Response>,
  log: Logger,
): Promise<{ server: Deno.HttpServer | null; state: ListenerState }> {
  const listening = Promise.withResolvers<number>();
  try {
    const server = Deno.serve({
      hostname: "127.0.0.1",
      port,
      onListen: (addr) => listening.resolve(addr.port),
      onError: (err) => {
        log.error("gateway_request_failed", { error: err });
        return apiError(500, "api_error", "forge gateway: the request failed inside forge");
      },
    }, handler);
    const bound = await listening.promise;
    log.info("gateway_listening", { port: bound });
    return { server, state: { ready: true, port: bound, bind_error: null } };
  } catch (err) {
    const why = err instanceof Deno.errors.AddrInUse
      ? `port ${port} is taken`
      : err instanceof Deno.errors.NotCapable || err instanceof Deno.errors.PermissionDenied
      ? `forge is not allowed to listen on port ${port}`
      : `port ${port} could not be bound`;
    log.error("gateway_bind_failed", { port, error: why, cause: err });
    return { server: null, state: { ready: false, port, bind_error: `127.0.0.1:${port}: ${why}` } };
  }
}
