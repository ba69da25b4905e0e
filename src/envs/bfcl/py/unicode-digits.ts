// Python's character classes that int(), float(), strptime() and str.isdigit() rely on: decimal digits of any
// script (str.isdecimal, with their values), the wider str.isdigit set (superscripts, circled digits, ...: int()
// rejects those), and str.isspace. Node's Unicode tables are newer than CPython 3.11's (14.0), so characters
// added since then may be classified differently; BFCL text never contains them.

const DECIMAL = /^\p{Nd}$/u;

// Characters with Numeric_Type=Digit (isdigit but not isdecimal), from CPython 3.11's unicodedata.
const DIGIT_ONLY_RANGES: readonly (readonly [number, number])[] = [
  [0xb2, 0xb3],
  [0xb9, 0xb9],
  [0x1369, 0x1371],
  [0x19da, 0x19da],
  [0x2070, 0x2070],
  [0x2074, 0x2079],
  [0x2080, 0x2089],
  [0x2460, 0x2468],
  [0x2474, 0x247c],
  [0x2488, 0x2490],
  [0x24ea, 0x24ea],
  [0x24f5, 0x24fd],
  [0x24ff, 0x24ff],
  [0x2776, 0x277e],
  [0x2780, 0x2788],
  [0x278a, 0x2792],
  [0x10a40, 0x10a43],
  [0x10e60, 0x10e68],
  [0x11052, 0x1105a],
  [0x1f100, 0x1f10a],
];

// str.isspace() code points.
const SPACE_RANGES: readonly (readonly [number, number])[] = [
  [9, 13],
  [28, 32],
  [133, 133],
  [160, 160],
  [5760, 5760],
  [8192, 8202],
  [8232, 8233],
  [8239, 8239],
  [8287, 8287],
  [12288, 12288],
];

function inRanges(code: number, ranges: readonly (readonly [number, number])[]): boolean {
  return ranges.some(([low, high]) => code >= low && code <= high);
}

/** The value 0-9 of a decimal digit of any script (one code point), or undefined. */
export function decimalValue(char: string): number | undefined {
  if (char >= "0" && char <= "9" && char.length === 1) return char.charCodeAt(0) - 48;
  if (!DECIMAL.test(char)) return undefined;
  // Decimal digits come in contiguous runs of ten, 0 to 9, possibly several runs back to back.
  let code = char.codePointAt(0) as number;
  let steps = 0;
  while (DECIMAL.test(String.fromCodePoint(code - 1))) {
    code--;
    steps++;
  }
  return steps % 10;
}

/** str.isdigit() of one character. */
export function isPyDigit(char: string): boolean {
  return decimalValue(char) !== undefined || inRanges(char.codePointAt(0) ?? -1, DIGIT_ONLY_RANGES);
}

/** str.isspace() of one character. */
export function isPySpace(char: string): boolean {
  return inRanges(char.codePointAt(0) ?? -1, SPACE_RANGES);
}
