import { assertEquals } from "../tests/assert.ts";
import { checkOrigin, isLoopbackHost, isPrivateHost } from "./origin.ts";

const policy = {
  bind: "10.1.2.3",
  port: 8790,
  allowed: ["https://forge.example.org", "http://[fd00::5]:9000"],
};
const allowed = (o: string | null) => checkOrigin(o, policy).ok;

// spec: Reaching it: the origin matrix, lookalikes included.
Deno.test("origins the spec allows", () => {
  for (
    const o of [
      null, // a native client
      "tauri://localhost",
      "http://tauri.localhost",
      "https://tauri.localhost",
      "http://10.1.2.3:8790", // the server's own
      "http://localhost",
      "http://localhost:5173",
      "https://LOCALHOST:443",
      "http://127.0.0.1:3000",
      "http://127.8.9.10",
      "https://[::1]:8443",
      "http://[0:0:0:0:0:0:0:1]:80",
      "http://[::ffff:127.0.0.1]:9",
      "https://forge.example.org", // listed
      "http://[fd00::5]:9000",
    ]
  ) assertEquals(allowed(o), true, `${o} should be allowed`);
});

Deno.test("origins the spec refuses, lookalikes and userinfo tricks included", () => {
  for (
    const o of [
      "http://localhost.evil.com",
      "http://[::1].evil.com",
      "http://127.0.0.1.evil.com",
      "http://evil.com",
      "http://localhost@evil.com",
      "http://evil.com@localhost",
      "http://user:pass@127.0.0.1",
      "http://localhost:80abc",
      "http://localhost:99999",
      "http://localhost/path",
      "http://localhost#frag",
      "http://127.0.0.1:80:80",
      "ftp://localhost",
      "file://",
      "null",
      "",
      "https://10.1.2.3:8790", // own address, wrong scheme
      "http://10.1.2.3:8791", // own address, wrong port
      "https://forge.example.org:444", // listed host, another port
      "https://sub.forge.example.org",
      "tauri://localhost.evil.com",
      "http://[::2]",
      "http://128.0.0.1",
    ]
  ) assertEquals(allowed(o), false, `${o} should be refused`);
});

Deno.test("loopback recognises every spelling of 127/8 and ::1", () => {
  assertEquals(
    ["127.0.0.1", "127.255.255.254", "::1", "0::1", "::ffff:127.1.1.1", "localhost"].map(
      isLoopbackHost,
    ),
    [true, true, true, true, true, true],
  );
  assertEquals(
    ["126.0.0.1", "::", "::2", "127.0.0.256", "localhost.", "1.2.3.4"].map(isLoopbackHost),
    [false, false, false, false, false, false],
  );
});

Deno.test("origin: private networks' addresses, and what is not one", () => {
  const yes = ["10.1.2.3", "172.16.0.1", "172.31.255.1", "192.168.0.9", "100.64.1.1", "fd12::1"];
  for (const ip of yes) assertEquals(isPrivateHost(ip), true, ip);
  const no = [
    "172.32.0.1",
    "8.8.8.8",
    "100.128.0.1",
    "2001:db8::1",
    "box.lan",
    "999.1.1.1",
    "0.0.0.0",
    "::",
    "fdx::1",
  ];
  for (const ip of no) assertEquals(isPrivateHost(ip), false, ip);
});
