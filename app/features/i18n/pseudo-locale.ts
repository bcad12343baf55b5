const ACCENTED: Record<string, string> = {
  a: "ȧ",
  b: "ƀ",
  c: "ƈ",
  d: "ḓ",
  e: "ḗ",
  f: "ƒ",
  g: "ɠ",
  h: "ħ",
  i: "ī",
  j: "ĵ",
  k: "ķ",
  l: "ŀ",
  m: "ḿ",
  n: "ƞ",
  o: "ǿ",
  p: "ƥ",
  q: "ɋ",
  r: "ř",
  s: "ş",
  t: "ŧ",
  u: "ŭ",
  v: "ṽ",
  w: "ẇ",
  x: "ẋ",
  y: "ẏ",
  z: "ẑ",
  A: "Ȧ",
  B: "Ɓ",
  C: "Ƈ",
  D: "Ḓ",
  E: "Ḗ",
  F: "Ƒ",
  G: "Ɠ",
  H: "Ħ",
  I: "Ī",
  J: "Ĵ",
  K: "Ķ",
  L: "Ŀ",
  M: "Ḿ",
  N: "Ƞ",
  O: "Ǿ",
  P: "Ƥ",
  Q: "Ɋ",
  R: "Ř",
  S: "Ş",
  T: "Ŧ",
  U: "Ŭ",
  V: "Ṽ",
  W: "Ẇ",
  X: "Ẋ",
  Y: "Ẏ",
  Z: "Ẑ",
};
const VOWEL = /[aeiouAEIOU]/;

/**
 * English made visibly foreign and about 40% longer: every letter accented (so any plain-ASCII word on a
 * pseudo-locale page escaped translation) and vowels doubled until the text has grown by 40%.
 */
export function pseudoLocalize(text: string): string {
  const letters = [...text].filter((ch) => /[A-Za-z]/.test(ch)).length;
  let extra = Math.ceil(letters * 0.4);
  let out = "";
  for (const ch of text) {
    const accented = ACCENTED[ch] ?? ch;
    out += accented;
    if (extra > 0 && VOWEL.test(ch)) {
      out += accented;
      extra--;
    }
  }
  // Text with too few vowels to stretch gets the rest as a tail of its own.
  return extra > 0 ? `${out} ${"ẋ".repeat(extra)}` : out;
}
