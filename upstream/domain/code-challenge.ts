import { randomInt } from "node:crypto";

/**
 * The picture challenge a code request answers first (decision 024): a few digits drawn as
 * strokes (paths, never text, so the answer is not in the SVG's markup), each turned, slanted and
 * shaken at random, crossed by lines and dots. Not a strong captcha; it makes sending codes to
 * many numbers cost a human look each, on top of the per-number and per-address limits.
 */
export const CHALLENGE_LENGTH = 5;
const WIDTH = 160;
const HEIGHT = 56;

/** Each digit as strokes on a 6 × 10 grid (x right, y down). */
const GLYPHS: Record<string, number[][][]> = {
  "0": [
    [
      [1, 0],
      [5, 0],
      [6, 2],
      [6, 8],
      [5, 10],
      [1, 10],
      [0, 8],
      [0, 2],
      [1, 0],
    ],
  ],
  "1": [
    [
      [1, 2],
      [3, 0],
      [3, 10],
    ],
    [
      [1, 10],
      [5, 10],
    ],
  ],
  "2": [
    [
      [0, 2],
      [1, 0],
      [5, 0],
      [6, 2],
      [6, 4],
      [0, 10],
      [6, 10],
    ],
  ],
  "3": [
    [
      [0, 1],
      [1, 0],
      [5, 0],
      [6, 2],
      [6, 3.5],
      [4.5, 5],
      [2, 5],
    ],
    [
      [4.5, 5],
      [6, 6.5],
      [6, 8],
      [5, 10],
      [1, 10],
      [0, 9],
    ],
  ],
  "4": [
    [
      [5, 10],
      [5, 0],
      [0, 7],
      [6, 7],
    ],
  ],
  "5": [
    [
      [6, 0],
      [0, 0],
      [0, 4.5],
      [4, 4],
      [6, 6],
      [6, 8],
      [5, 10],
      [1, 10],
      [0, 9],
    ],
  ],
  "6": [
    [
      [5, 0],
      [2, 0],
      [0, 3],
      [0, 8],
      [1, 10],
      [5, 10],
      [6, 8],
      [6, 6],
      [5, 4.5],
      [1, 4.5],
      [0, 6],
    ],
  ],
  "7": [
    [
      [0, 0],
      [6, 0],
      [2, 10],
    ],
  ],
  "8": [
    [
      [1, 0],
      [5, 0],
      [6, 1.5],
      [6, 3.5],
      [5, 5],
      [1, 5],
      [0, 6.5],
      [0, 8.5],
      [1, 10],
      [5, 10],
      [6, 8.5],
      [6, 6.5],
      [5, 5],
    ],
    [
      [1, 5],
      [0, 3.5],
      [0, 1.5],
      [1, 0],
    ],
  ],
  "9": [
    [
      [6, 4],
      [5, 5.5],
      [1, 5.5],
      [0, 4],
      [0, 1.5],
      [1, 0],
      [5, 0],
      [6, 2],
      [6, 7],
      [4, 10],
      [1, 10],
    ],
  ],
};

/** Dark enough on the light ground for anyone who can see the picture. */
const INK = ["#1f3a5f", "#3b1f5f", "#5f1f2e", "#1f5f3a", "#333333", "#5f4b1f"];
const NOISE = ["#8aa1b8", "#b89a8a", "#9ab88a", "#a08ab8"];

const pick = <T>(items: readonly T[]): T => items[randomInt(items.length)]!;
/** A random number in [min, max), in tenths. */
const between = (min: number, max: number) => min + randomInt(Math.round((max - min) * 10)) / 10;
const round = (n: number) => Math.round(n * 10) / 10;

function glyphPath(strokes: number[][][]): string {
  return strokes
    .map((stroke) =>
      stroke.map(([x, y], i) => `${i === 0 ? "M" : "L"}${round(x! + between(-0.4, 0.4))} ${round(y! + between(-0.4, 0.4))}`).join(""),
    )
    .join("");
}

function noiseCurve(color: string, width: number): string {
  const y = () => between(4, HEIGHT - 4);
  const d = `M0 ${y()}C${between(20, 70)} ${y()} ${between(90, 140)} ${y()} ${WIDTH} ${y()}`;
  return `<path d="${d}" stroke="${color}" stroke-width="${width}" fill="none"/>`;
}

/** A new challenge: its answer (digits) and its picture (an SVG document). */
export function newChallengePicture(): { answer: string; svg: string } {
  let answer = "";
  for (let i = 0; i < CHALLENGE_LENGTH; i++) answer += String(randomInt(10));
  const parts: string[] = [];
  for (let i = 0; i < 3; i++) parts.push(noiseCurve(pick(NOISE), between(1, 2)));
  for (let i = 0; i < 40; i++)
    parts.push(`<circle cx="${between(0, WIDTH)}" cy="${between(0, HEIGHT)}" r="${between(0.6, 1.6)}" fill="${pick(NOISE)}"/>`);
  const step = (WIDTH - 20) / CHALLENGE_LENGTH;
  [...answer].forEach((digit, i) => {
    const x = 10 + step * i + step / 2 + between(-3, 3);
    const y = HEIGHT / 2 + between(-4, 4);
    const transform = `translate(${round(x)} ${round(y)})rotate(${between(-25, 25)})skewX(${between(-15, 15)})scale(${between(2.6, 3.4)})translate(-3 -5)`;
    const d = glyphPath(GLYPHS[digit]!);
    parts.push(
      `<path d="${d}" transform="${transform}" stroke="${pick(INK)}" stroke-width="0.8" fill="none" stroke-linecap="round" stroke-linejoin="round"/>`,
    );
  });
  // One line in ink across the digits, so they do not separate by colour alone.
  parts.push(noiseCurve(pick(INK), 1.2));
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}" viewBox="0 0 ${WIDTH} ${HEIGHT}">` +
    `<rect width="100%" height="100%" fill="#f4f6f8"/>${parts.join("")}</svg>`;
  return { answer, svg };
}
