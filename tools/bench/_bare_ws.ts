const server = Deno.serve({
  port: 0,
  hostname: "127.0.0.1",
  onListen: (a) => console.log(`LISTENING 127.0.0.1:${a.port}`),
}, (req) => {
  const { socket, response } = Deno.upgradeWebSocket(req);
  socket.onmessage = (e) => {
    if (e.data === '{"kind":"ping"}') socket.send('{"kind":"pong"}');
    else {socket.send(
        JSON.stringify({
          kind: "error",
          what: "client_message",
          why: "refused",
          seat: null,
          dispatch_id: null,
        }),
      );}
  };
  return response;
});
await server.finished;
