// Writes public/sounds/checkout-chime.wav: a soft two-note chime (mono, 22.05 kHz, 16-bit PCM, ~0.9 s).
import fs from "node:fs";
import path from "node:path";

const rate = 22050;
const seconds = 0.9;
const notes = [
  { hz: 880, start: 0, gain: 0.28 },
  { hz: 1318.5, start: 0.16, gain: 0.22 },
];
const samples = Math.round(rate * seconds);
const pcm = Buffer.alloc(samples * 2);
for (let i = 0; i < samples; i++) {
  const t = i / rate;
  let value = 0;
  for (const note of notes) {
    const local = t - note.start;
    if (local < 0) continue;
    // 8 ms attack, then an exponential decay: a bell, not a beep.
    const envelope = Math.min(1, local / 0.008) * Math.exp(-local * 5);
    value +=
      note.gain * envelope * (Math.sin(2 * Math.PI * note.hz * local) + 0.2 * Math.sin(4 * Math.PI * note.hz * local));
  }
  pcm.writeInt16LE(Math.max(-32767, Math.min(32767, Math.round(value * 32767))), i * 2);
}
const header = Buffer.alloc(44);
header.write("RIFF", 0);
header.writeUInt32LE(36 + pcm.length, 4);
header.write("WAVE", 8);
header.write("fmt ", 12);
header.writeUInt32LE(16, 16);
header.writeUInt16LE(1, 20);
header.writeUInt16LE(1, 22);
header.writeUInt32LE(rate, 24);
header.writeUInt32LE(rate * 2, 28);
header.writeUInt16LE(2, 32);
header.writeUInt16LE(16, 34);
header.write("data", 36);
header.writeUInt32LE(pcm.length, 40);
const out = path.resolve(import.meta.dirname, "../public/sounds/checkout-chime.wav");
fs.mkdirSync(path.dirname(out), { recursive: true });
fs.writeFileSync(out, Buffer.concat([header, pcm]));
console.log(`wrote ${out} (${header.length + pcm.length} bytes)`);
