import { assert, assertEquals } from "./assert.ts";
import { pinnedFlite } from "./dictate_audio.ts";
import { command, DICTATE_CONFIG, LEAD, nextUpdate } from "./dictate_support.ts";
import { until } from "./harness.ts";
import { spawnForge } from "./spawned.ts";
import { encodeWav } from "../subsystems/dictate/wav.ts";

// Spawned tier: dictate_start records from forge's own machine through PulseAudio. The test runs
// a private PulseAudio server whose default source is a null sink's monitor, and plays flite's
// speech into that sink with paplay, as a microphone would hear it.

async function pulse(dir: string): Promise<{ server: string; stop(): Promise<void> }> {
  const env = { HOME: dir, XDG_RUNTIME_DIR: dir };
  const daemon = new Deno.Command("pulseaudio", {
    args: [
      "-n",
      "--daemonize=no",
      "--exit-idle-time=-1",
      "--disable-shm=yes",
      "-L",
      "module-null-sink sink_name=forge_mic rate=16000 channels=1",
      "-L",
      "module-native-protocol-unix auth-anonymous=1",
    ],
    env,
    stdout: "null",
    stderr: "null",
  }).spawn();
  const server = `unix:${dir}/pulse/native`;
  const pactl = (...args: string[]) =>
    new Deno.Command("pactl", {
      args,
      env: { ...env, PULSE_SERVER: server },
      stdout: "null",
      stderr: "null",
    })
      .output();
  // Wait for the server's answer, bounded: pactl info succeeds once the socket is up.
  for (let i = 0; i < 200 && !(await pactl("info")).success; i++) {
    await new Promise((r) => setTimeout(r, 50));
  }
  assert((await pactl("set-default-source", "forge_mic.monitor")).success, "pulseaudio up");
  return {
    server,
    async stop() {
      daemon.kill("SIGTERM");
      await daemon.status;
    },
  };
}

Deno.test("spawned dictate_start: a take from this machine's default input lands its words", async () => {
  const dir = await Deno.makeTempDir({ prefix: "forge-pulse-" });
  const pa = await pulse(dir);
  try {
    await using forge = await spawnForge(`${DICTATE_CONFIG}server_capture = true\n`, {
      PULSE_SERVER: pa.server,
    });
    const c = await forge.connect();
    // A live capture starts the speech at whatever offset the device happens to be at, and the
    // decode's frames fall on it differently each time. Fed with leading silence of 0 to 16,000
    // samples in steps of 127, this sentence decoded exactly at all 126 offsets, where "build the
    // project and report any warnings" came out wrong at 5 of 16 (as "bridgeport" once in CI).
    const sentence = "push the branch to origin";
    const wav = `${dir}/speech.wav`;
    await Deno.writeFile(wav, encodeWav(await pinnedFlite(sentence)));
    command(c, { dictate_start: { key: LEAD } });
    await nextUpdate(c, "dictate_started");
    const played = await new Deno.Command("paplay", {
      args: [wav],
      env: { PULSE_SERVER: pa.server },
    }).output();
    assert(played.success, "paplay played the speech");
    await nextUpdate(c, "dictate_level"); // the meter moved while the machine heard it
    command(c, { dictate_stop: { key: LEAD, submit: true } });
    const ended = await nextUpdate(c, "dictate_ended");
    // The take's axes are the seat's stored ones: here the [dictate] defaults (semi_formal prose).
    assertEquals(ended.outcome, {
      landed: { text: "Push the branch to origin.", truncated: false },
    });
  } finally {
    await pa.stop();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("spawned dictate_start: with no PulseAudio server it is refused in words to that connection", async () => {
  await using forge = await spawnForge(`${DICTATE_CONFIG}server_capture = true\n`, {
    PULSE_SERVER: "unix:/nonexistent/forge-no-pulse",
  });
  const c = await forge.connect();
  command(c, { dictate_start: { key: LEAD } });
  const ended = await nextUpdate(c, "dictate_ended");
  const message = (ended.outcome as { refused: { message: string } }).refused.message;
  assert(message.startsWith("no PulseAudio server answers on this machine"), message);
  assert(
    !/Connection|refused|failure/i.test(message),
    `pactl's own words stay in the log: ${message}`,
  );
  await until(() => forge.stderr().includes("dictate_capture_refused"));
  assert(forge.stderr().includes("pactl info answered: Connection failure"), "the log has pactl's");
});
