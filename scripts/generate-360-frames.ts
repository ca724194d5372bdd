// Renders the 360-degree viewer's frames: every catalogue front as a 3D object on a
// turntable, 36 frames a full turn, at every frame size. Output is build output
// (static/360 is git-ignored); a run is skipped while nothing it depends on changed.
//   node --import tsx scripts/generate-360-frames.ts
import { createHash } from "node:crypto";
import { mkdir, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import sharp from "sharp";
import {
  type Catalogue,
  type CatalogueFront,
  loadCatalogue,
  type ModelShape,
  type Orientation,
} from "../server/domain/catalogue.ts";
import { frameCount, frameSizes } from "../server/domain/viewer-frames.ts";

const ownPath = fileURLToPath(import.meta.url);
const projectRoot = resolve(dirname(ownPath), "..");

/** The SVG is drawn at this size; smaller frames are the same drawing rendered smaller. */
const canvas = 720;
const concurrency = 4;
const jpeg = { quality: 78, mozjpeg: true } as const;
const background = "#f1f1ee";
/** The camera looks down a little, so the top of the object shows and it reads as 3D. */
const tilt = (11 * Math.PI) / 180;

// ---------------------------------------------------------------------------------------
// Geometry: orthographic projection of boxes turned about the vertical axis.

type Vec3 = readonly [number, number, number];

const add = (a: Vec3, b: Vec3): Vec3 => [a[0] + b[0], a[1] + b[1], a[2] + b[2]];
const scale = (a: Vec3, k: number): Vec3 => [a[0] * k, a[1] * k, a[2] * k];
const dot = (a: Vec3, b: Vec3) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const length = (a: Vec3) => Math.sqrt(dot(a, a));
const unit = (a: Vec3): Vec3 => scale(a, 1 / length(a));

interface Camera {
  /** Model space (y up, z towards the front) to view space (x right, y up, z towards the viewer). */
  view(p: Vec3): Vec3;
  /** View space to SVG pixels. */
  screen(p: Vec3): [number, number];
}

/**
 * Turning by a positive angle moves the front to the viewer's right, so the next frames
 * show the object's left side: for a book, its spine.
 */
function camera(angle: number, pixelsPerUnit: number, centreY: number): Camera {
  const cos = Math.cos(angle);
  const sin = Math.sin(angle);
  const cosT = Math.cos(tilt);
  const sinT = Math.sin(tilt);
  return {
    view([x, y, z]) {
      const xr = x * cos + z * sin;
      const zr = -x * sin + z * cos;
      return [xr, y * cosT - zr * sinT, y * sinT + zr * cosT];
    },
    screen([x, y]) {
      return [canvas / 2 + x * pixelsPerUnit, centreY - y * pixelsPerUnit];
    },
  };
}

/** What goes on a face, drawn in the face's own units: (0,0) top left, (width, height) bottom right. */
interface Paint {
  fill: string;
  draw?: (width: number, height: number) => string;
}

interface Face {
  origin: Vec3;
  /** Edge vectors: u runs to the face's right, v downwards, as seen from outside. */
  u: Vec3;
  v: Vec3;
  normal: Vec3;
  paint: Paint;
}

interface Part {
  faces: Face[];
  centre: Vec3;
}

type FaceName = "front" | "back" | "left" | "right" | "top" | "bottom";

interface BoxSpec {
  centre: Vec3;
  size: Vec3;
  paint: Record<FaceName, Paint>;
  /** Turn in the picture plane (radians), for a loose print lying askew in a stack. */
  roll?: number;
}

function box({ centre, size, paint, roll = 0 }: BoxSpec): Part {
  const X: Vec3 = [Math.cos(roll), Math.sin(roll), 0];
  const Y: Vec3 = [-Math.sin(roll), Math.cos(roll), 0];
  const Z: Vec3 = [0, 0, 1];
  const [sx, sy, sz] = size;
  const corner = (kx: number, ky: number, kz: number) =>
    add(add(add(centre, scale(X, (kx * sx) / 2)), scale(Y, (ky * sy) / 2)), scale(Z, (kz * sz) / 2));
  const down = scale(Y, -sy);
  const faces: Face[] = [
    { origin: corner(-1, 1, 1), u: scale(X, sx), v: down, normal: Z, paint: paint.front },
    { origin: corner(1, 1, -1), u: scale(X, -sx), v: down, normal: scale(Z, -1), paint: paint.back },
    { origin: corner(1, 1, 1), u: scale(Z, -sz), v: down, normal: X, paint: paint.right },
    { origin: corner(-1, 1, -1), u: scale(Z, sz), v: down, normal: scale(X, -1), paint: paint.left },
    { origin: corner(-1, 1, -1), u: scale(X, sx), v: scale(Z, sz), normal: Y, paint: paint.top },
    {
      origin: corner(-1, -1, 1),
      u: scale(X, sx),
      v: scale(Z, -sz),
      normal: scale(Y, -1),
      paint: paint.bottom,
    },
  ];
  return { faces, centre };
}

const light = unit([-0.45, 0.6, 0.75]);
/** Faces are drawn in model units (the long side is 1), so keep enough digits for fine lines. */
const number = (n: number) => (Math.abs(n) < 1e-9 ? "0" : String(Math.round(n * 10000) / 10000));

/** Light falls from the camera's upper left, so faces darken as they turn away from it. */
function shading(normalInView: Vec3, reference: number): string {
  const lit = Math.max(0, dot(normalInView, light));
  const difference = lit - reference;
  if (Math.abs(difference) < 0.02) return "";
  return difference < 0
    ? `fill="#000" fill-opacity="${number(Math.min(0.45, -difference * 0.4))}"`
    : `fill="#fff" fill-opacity="${number(Math.min(0.25, difference * 0.35))}"`;
}

function drawFace(face: Face, cam: Camera, reference: number): string {
  const normal = cam.view(face.normal);
  if (normal[2] <= 0.01) return "";
  const corners = [
    face.origin,
    add(face.origin, face.u),
    add(add(face.origin, face.u), face.v),
    add(face.origin, face.v),
  ];
  const points = corners.map((c) => cam.screen(cam.view(c)).map(number).join(",")).join(" ");
  const { fill, draw } = face.paint;
  // The stroke in the face's own colour closes the hairline seams anti-aliasing leaves between faces.
  let svg = `<polygon points="${points}" fill="${fill}" stroke="${fill}" stroke-width="0.8" stroke-linejoin="round"/>`;
  if (draw) {
    const width = length(face.u);
    const height = length(face.v);
    const [ox, oy] = cam.screen(cam.view(face.origin));
    const [ux, uy] = cam.screen(cam.view(add(face.origin, scale(face.u, 1 / width))));
    const [vx, vy] = cam.screen(cam.view(add(face.origin, scale(face.v, 1 / height))));
    // Orthographic projection keeps straight lines and ratios: one affine matrix maps the face.
    const matrix = [ux - ox, uy - oy, vx - ox, vy - oy, ox, oy].map(number).join(" ");
    svg += `<g transform="matrix(${matrix})">${draw(width, height)}</g>`;
  }
  const shade = shading(normal, reference);
  if (shade) svg += `<polygon points="${points}" ${shade}/>`;
  return svg;
}

// ---------------------------------------------------------------------------------------
// Artwork: a small illustrated photo, and the page and sheet edges.

interface Palette {
  skyTop: string;
  skyBottom: string;
  sun: string;
  hills: [string, string, string];
}

const palettes: Palette[] = [
  { skyTop: "#6fa8dc", skyBottom: "#d6ebf5", sun: "#ffd45c", hills: ["#9cc59a", "#5f9e5f", "#3c7547"] },
  { skyTop: "#e98b5d", skyBottom: "#fbd8a0", sun: "#fff1c1", hills: ["#b78593", "#7d5a7a", "#4a3a5c"] },
  { skyTop: "#5cb8b2", skyBottom: "#e2f3ec", sun: "#fff3b0", hills: ["#8fbba6", "#4f8c7a", "#2d675a"] },
];

function paletteFor(id: string): number {
  return createHash("sha256").update(id).digest()[0] ?? 0;
}

function defs(): string {
  const skies = palettes
    .map(
      (p, i) =>
        `<linearGradient id="sky${i}" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${p.skyTop}"/><stop offset="1" stop-color="${p.skyBottom}"/></linearGradient>`,
    )
    .join("");
  return `<defs>${skies}<radialGradient id="backdrop" cx="0.5" cy="0.42" r="0.7"><stop offset="0" stop-color="#fbfbf9"/><stop offset="1" stop-color="${background}"/></radialGradient><filter id="soft" x="-50%" y="-50%" width="200%" height="200%"><feGaussianBlur stdDeviation="12"/></filter><filter id="contact" x="-50%" y="-50%" width="200%" height="200%"><feGaussianBlur stdDeviation="2.5"/></filter></defs>`;
}

/** Sky, sun and three rows of hills filling the box (x, y, w, h). */
function photo(paletteIndex: number, x: number, y: number, w: number, h: number): string {
  const p = palettes[paletteIndex % palettes.length] as Palette;
  const at = (fx: number, fy: number) => `${number(x + fx * w)} ${number(y + fy * h)}`;
  const hill = (colour: string, y0: number, peaks: Array<[number, number]>) => {
    let d = `M${at(0, 1)} L${at(0, y0)}`;
    let previous = 0;
    for (const [px, py] of peaks) {
      d += ` Q${at((previous + px) / 2, py)} ${at(px, (y0 + py) / 2)}`;
      previous = px;
    }
    return `<path d="${d} L${at(1, y0)} L${at(1, 1)} Z" fill="${colour}"/>`;
  };
  const r = Math.min(w, h) * 0.09;
  return [
    `<rect x="${number(x)}" y="${number(y)}" width="${number(w)}" height="${number(h)}" fill="url(#sky${paletteIndex % palettes.length})"/>`,
    `<circle cx="${number(x + w * 0.7)}" cy="${number(y + h * 0.3)}" r="${number(r * 1.8)}" fill="${p.sun}" fill-opacity="0.3"/>`,
    `<circle cx="${number(x + w * 0.7)}" cy="${number(y + h * 0.3)}" r="${number(r)}" fill="${p.sun}"/>`,
    hill(p.hills[0], 0.58, [
      [0.3, 0.42],
      [0.65, 0.56],
      [1, 0.44],
    ]),
    hill(p.hills[1], 0.72, [
      [0.45, 0.56],
      [1, 0.66],
    ]),
    hill(p.hills[2], 0.88, [
      [0.25, 0.74],
      [0.7, 0.84],
      [1, 0.78],
    ]),
  ].join("");
}

/** Fine lines where sheets meet: `across` lines run along the face's width, else along its height. */
function sheetLines(colour: string, gap: number, across: boolean) {
  return (w: number, h: number) => {
    const extent = across ? h : w;
    const count = Math.floor(extent / gap);
    let d = "";
    for (let i = 1; i < count; i++) {
      const at = number((i * extent) / count);
      d += across ? `M0 ${at}H${number(w)}` : `M${at} 0V${number(h)}`;
    }
    return d ? `<path d="${d}" stroke="${colour}" stroke-width="${number(gap * 0.4)}" fill="none"/>` : "";
  };
}

const plain = (fill: string): Paint => ({ fill });
const mix = (hex: string, other: string, amount: number) => {
  const channel = (h: string, i: number) => Number.parseInt(h.slice(1 + i * 2, 3 + i * 2), 16);
  const parts = [0, 1, 2].map((i) => Math.round(channel(hex, i) * (1 - amount) + channel(other, i) * amount));
  return `#${parts.map((c) => c.toString(16).padStart(2, "0")).join("")}`;
};

// ---------------------------------------------------------------------------------------
// Products: each shape as boxes, sized for its orientation (the long side is 1 unit).

const aspects: Record<Orientation, [number, number]> = {
  landscape: [1, 0.75],
  portrait: [0.75, 1],
  square: [1, 1],
};

interface Model {
  parts: Part[];
  /** Footprint on the floor, for the shadow: width and depth around the centre. */
  footprint: [number, number];
  height: number;
  /** Things that stick out (a calendar's hanger), drawn after the body. */
  extras?: (cam: Camera) => string;
}

const paper = "#f7f4ec";
const pageLine = "#c9c1ae";

function book(w: number, h: number, colour: string, art: number): Model {
  const depth = 0.075;
  const board = 0.012;
  const overhang = 0.014;
  const spine = 0.016;
  const edge = plain(colour);
  const inside = plain(mix(colour, "#f4efe4", 0.75));
  const boardWidth = w - spine;
  const boardX = -w / 2 + spine + boardWidth / 2;
  const coverArt = (bw: number, bh: number) => {
    const margin = Math.min(bw, bh) * 0.1;
    const hinge = bw * 0.045;
    return (
      `<path d="M${number(hinge)} 0V${number(bh)}" stroke="#000" stroke-opacity="0.18" stroke-width="${number(bw * 0.006)}"/>` +
      `<rect x="${number(hinge + margin - 0.004)}" y="${number(margin - 0.004)}" width="${number(bw - hinge - 2 * margin + 0.008)}" height="${number(bh - 2 * margin + 0.008)}" fill="#fff" fill-opacity="0.85"/>` +
      photo(art, hinge + margin, margin, bw - hinge - 2 * margin, bh - 2 * margin)
    );
  };
  const frontBoard = box({
    centre: [boardX, 0, depth / 2 - board / 2],
    size: [boardWidth, h, board],
    paint: {
      front: { fill: colour, draw: coverArt },
      back: inside,
      left: edge,
      right: edge,
      top: edge,
      bottom: edge,
    },
  });
  const backBoard = box({
    centre: [boardX, 0, -depth / 2 + board / 2],
    size: [boardWidth, h, board],
    paint: { front: inside, back: edge, left: edge, right: edge, top: edge, bottom: edge },
  });
  const spineBand = (sw: number, sh: number) =>
    `<path d="M0 ${number(sh * 0.06)}H${number(sw)}M0 ${number(sh * 0.94)}H${number(sw)}" stroke="#fff" stroke-opacity="0.35" stroke-width="${number(sh * 0.004)}"/>`;
  const spinePart = box({
    centre: [-w / 2 + spine / 2, 0, 0],
    size: [spine, h, depth],
    paint: {
      front: edge,
      back: edge,
      left: { fill: colour, draw: spineBand },
      right: inside,
      top: edge,
      bottom: edge,
    },
  });
  const blockDepth = depth - 2 * board;
  const pagesAlong = { fill: paper, draw: sheetLines(pageLine, 0.0032, false) };
  const pagesAcross = { fill: paper, draw: sheetLines(pageLine, 0.0032, true) };
  const block = box({
    centre: [-w / 2 + spine + (boardWidth - overhang) / 2, 0, 0],
    size: [boardWidth - overhang, h - 2 * overhang, blockDepth],
    paint: {
      front: plain(paper),
      back: plain(paper),
      left: plain(paper),
      right: pagesAlong,
      top: pagesAcross,
      bottom: pagesAcross,
    },
  });
  return { parts: [backBoard, block, spinePart, frontBoard], footprint: [w, depth], height: h };
}

function printFront(art: number, border: number) {
  return (w: number, h: number) => {
    const b = Math.min(w, h) * border;
    return photo(art, b, b, w - 2 * b, h - 2 * b);
  };
}

function stack(w: number, h: number, colour: string, art: number): Model {
  const depth = 0.032;
  const sheet = 0.004;
  const edgeAlong = { fill: colour, draw: sheetLines(mix(colour, "#000000", 0.14), 0.0028, false) };
  const edgeAcross = { fill: colour, draw: sheetLines(mix(colour, "#000000", 0.14), 0.0028, true) };
  const loose = (roll: number, z: number, picture: number) =>
    box({
      centre: [0, 0, z],
      size: [w, h, sheet],
      roll,
      paint: {
        front: { fill: colour, draw: printFront(picture, 0.045) },
        back: plain(colour),
        left: plain(colour),
        right: plain(colour),
        top: plain(colour),
        bottom: plain(colour),
      },
    });
  const pile = box({
    centre: [0, 0, 0],
    size: [w, h, depth],
    paint: {
      front: { fill: colour, draw: printFront(art, 0.045) },
      back: plain(mix(colour, "#ffffff", 0.3)),
      left: edgeAlong,
      right: edgeAlong,
      top: edgeAcross,
      bottom: edgeAcross,
    },
  });
  // Two prints lie askew behind the pile, so it reads as loose photos, not a block. They share its
  // centre line: painter's order by centre depth stays right at every angle.
  const behind = [loose(0.07, -depth / 2 - sheet, art + 1), loose(-0.05, -depth / 2 - sheet * 2.5, art + 2)];
  return { parts: [...behind, pile], footprint: [w * 1.08, depth + sheet * 4], height: h };
}

function sheet(w: number, h: number, colour: string, art: number): Model {
  const depth = 0.008;
  const part = box({
    centre: [0, 0, 0],
    size: [w, h, depth],
    paint: {
      front: { fill: colour, draw: printFront(art, 0.03) },
      back: plain(mix(colour, "#e8e4dc", 0.5)),
      left: plain(colour),
      right: plain(colour),
      top: plain(colour),
      bottom: plain(colour),
    },
  });
  return { parts: [part], footprint: [w, depth], height: h };
}

function canvasPrint(w: number, h: number, colour: string, art: number): Model {
  const depth = 0.085;
  const wood = "#c49a66";
  // The picture wraps round the frame: each side continues the front as a mirror of its edge strip.
  const wrap = (clipId: string, transform: string) => (fw: number, fh: number) =>
    `<clipPath id="${clipId}"><rect width="${number(fw)}" height="${number(fh)}"/></clipPath><g clip-path="url(#${clipId})"><g transform="${transform}">${photo(art, 0, 0, w, h)}</g></g>`;
  const id = `wrap${art}`;
  const back = (fw: number, fh: number) => {
    const bar = 0.055;
    const inset = 0.008;
    const staples = [0.2, 0.4, 0.6, 0.8]
      .flatMap((f) => [
        `<rect x="${number(fw * f - 0.01)}" y="${number(inset / 2)}" width="0.02" height="0.003"/>`,
        `<rect x="${number(fw * f - 0.01)}" y="${number(fh - inset / 2 - 0.003)}" width="0.02" height="0.003"/>`,
      ])
      .join("");
    return (
      `<path d="M${number(inset)} ${number(inset)}H${number(fw - inset)}V${number(fh - inset)}H${number(inset)}Z M${number(inset + bar)} ${number(inset + bar)}V${number(fh - inset - bar)}H${number(fw - inset - bar)}V${number(inset + bar)}Z" fill="${wood}" fill-rule="evenodd" stroke="${mix(wood, "#000000", 0.25)}" stroke-width="0.002"/>` +
      `<g fill="#8a8a8a">${staples}</g>`
    );
  };
  const part = box({
    centre: [0, 0, 0],
    size: [w, h, depth],
    paint: {
      front: { fill: colour, draw: (fw, fh) => photo(art, 0, 0, fw, fh) },
      back: { fill: mix(colour, "#000000", 0.08), draw: back },
      // u runs from the front edge backwards on the right side: mirror the picture's right-hand strip.
      right: { fill: colour, draw: wrap(`${id}r`, `translate(${number(w)} 0) scale(-1 1)`) },
      left: { fill: colour, draw: wrap(`${id}l`, `translate(${number(depth)} 0) scale(-1 1)`) },
      top: { fill: colour, draw: wrap(`${id}t`, `translate(0 ${number(depth)}) scale(1 -1)`) },
      bottom: { fill: colour, draw: wrap(`${id}b`, `translate(0 ${number(h)}) scale(1 -1)`) },
    },
  });
  return { parts: [part], footprint: [w, depth], height: h };
}

function calendar(w: number, h: number, colour: string, art: number): Model {
  const depth = 0.008;
  const rings = Math.max(9, Math.round(w * 22));
  const ringX = (fw: number, i: number) => fw * 0.06 + (i * fw * 0.88) / (rings - 1);
  const wire = "#4b4f55";
  const loops = (fw: number) =>
    Array.from({ length: rings }, (_, i) => {
      const x = number(ringX(fw, i));
      return `<circle cx="${x}" cy="0.02" r="0.0045" fill="#3a3a3a"/><ellipse cx="${x}" cy="0.004" rx="0.005" ry="0.019" fill="none" stroke="${wire}" stroke-width="0.0028"/>`;
    }).join("");
  const front = (fw: number, fh: number) => {
    const margin = fw * 0.06;
    const photoTop = 0.045;
    const photoHeight = fh * 0.56;
    const gridTop = photoTop + photoHeight + fh * 0.07;
    const gridHeight = fh - gridTop - margin;
    const columns = 7;
    const rows = 5;
    const cellW = (fw - 2 * margin) / columns;
    const cellH = gridHeight / (rows + 0.6);
    let grid = `<rect x="${number(margin)}" y="${number(photoTop + photoHeight + fh * 0.022)}" width="${number(fw * 0.28)}" height="${number(fh * 0.026)}" fill="#3b3f46"/>`;
    for (let c = 0; c < columns; c++) {
      grid += `<rect x="${number(margin + c * cellW + cellW * 0.25)}" y="${number(gridTop)}" width="${number(cellW * 0.5)}" height="${number(cellH * 0.28)}" fill="${c >= 5 ? "#c0392b" : "#7b8088"}"/>`;
    }
    let lines = "";
    for (let r = 0; r <= rows; r++) {
      const y = number(gridTop + cellH * 0.6 + r * cellH);
      lines += `M${number(margin)} ${y}H${number(fw - margin)}`;
    }
    for (let c = 0; c <= columns; c++) {
      const x = number(margin + c * cellW);
      lines += `M${x} ${number(gridTop + cellH * 0.6)}V${number(gridTop + cellH * 0.6 + rows * cellH)}`;
    }
    return (
      photo(art, margin, photoTop, fw - 2 * margin, photoHeight) +
      grid +
      `<path d="${lines}" stroke="#c9ccd1" stroke-width="0.0025" fill="none"/>` +
      loops(fw)
    );
  };
  const part = box({
    centre: [0, 0, 0],
    size: [w, h, depth],
    paint: {
      front: { fill: colour, draw: front },
      back: { fill: mix(colour, "#e9e6df", 0.6), draw: (fw) => loops(fw) },
      left: plain(colour),
      right: plain(colour),
      top: {
        fill: colour,
        draw: (fw, fd) =>
          `<path d="${Array.from({ length: rings }, (_, i) => `M${number(ringX(fw, i))} 0V${number(fd)}`).join("")}" stroke="${wire}" stroke-width="0.004"/>`,
      },
      bottom: plain(colour),
    },
  });
  // The hanger: a wire triangle above the top edge, in the sheet's own plane.
  const extras = (cam: Camera) => {
    const point = (x: number, y: number) =>
      cam
        .screen(cam.view([x, y, 0]))
        .map(number)
        .join(",");
    const top = h / 2;
    return `<polyline points="${point(-0.07, top + 0.004)} ${point(0, top + 0.07)} ${point(0.07, top + 0.004)}" fill="none" stroke="${wire}" stroke-width="2" stroke-linejoin="round"/>`;
  };
  return { parts: [part], footprint: [w, depth], height: h + 0.07, extras };
}

const shapes: Record<ModelShape, (w: number, h: number, colour: string, art: number) => Model> = {
  book,
  stack,
  sheet,
  canvas: canvasPrint,
  calendar,
};

/** One frame of one front as SVG: `angle` in radians, 0 is the front view. */
export function frameSvg(front: CatalogueFront, angle: number): string {
  const [w, h] = aspects[front.orientation];
  const { shape, colour } = front.product.model;
  const model = shapes[shape](w, h, colour.toLowerCase(), paletteFor(front.id));
  // One scale for every angle, from the widest the object gets while it turns, so it does not pulse.
  const [fw, fd] = model.footprint;
  const diagonal = Math.sqrt(fw * fw + fd * fd);
  const tallest = model.height * Math.cos(tilt) + diagonal * Math.sin(tilt);
  const pixelsPerUnit = (canvas * 0.8) / Math.max(diagonal, tallest);
  const cam = camera(angle, pixelsPerUnit, canvas * 0.48);
  const reference = Math.max(0, dot(camera(0, 1, 0).view([0, 0, 1]), light));

  // A soft pool of shade round the footprint and a darker line where the object meets the floor.
  const floor = -h / 2;
  const footprint = (marginX: number, marginZ: number) =>
    (
      [
        [-1, -1],
        [1, -1],
        [1, 1],
        [-1, 1],
      ] as const
    )
      .map(([kx, kz]) =>
        cam
          .screen(cam.view([kx * (fw / 2 + marginX), floor, kz * (fd / 2 + marginZ)]))
          .map(number)
          .join(","),
      )
      .join(" ");
  const shadow =
    `<polygon points="${footprint(0.02, 0.05)}" fill="#000" fill-opacity="0.13" filter="url(#soft)"/>` +
    `<polygon points="${footprint(0, 0.004)}" fill="#000" fill-opacity="0.25" filter="url(#contact)"/>`;

  // Painter's order: the part whose centre is furthest from the viewer first.
  const parts = [...model.parts].sort((a, b) => cam.view(a.centre)[2] - cam.view(b.centre)[2]);
  const body = parts
    .map((part) => part.faces.map((face) => drawFace(face, cam, reference)).join(""))
    .join("");
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${canvas}" height="${canvas}" viewBox="0 0 ${canvas} ${canvas}">` +
    `${defs()}<rect width="${canvas}" height="${canvas}" fill="url(#backdrop)"/>${shadow}${body}${model.extras?.(cam) ?? ""}</svg>`
  );
}

// ---------------------------------------------------------------------------------------
// The run: version check, stale fronts, rendering with limited concurrency.

export interface GenerateOptions {
  catalogue: Catalogue;
  outDir: string;
  log?: (line: string) => void;
}

export interface GenerateResult {
  version: string;
  /** true when the frames on disk were already up to date */
  skipped: boolean;
  images: number;
}

/** Changes whenever this drawing code, the frame sizes or any front's look changes. */
export async function framesVersion(catalogue: Catalogue): Promise<string> {
  const source = await readFile(ownPath, "utf8");
  const fronts = catalogue.fronts().map((f) => ({
    id: f.id,
    orientation: f.orientation,
    shape: f.product.model.shape,
    colour: f.product.model.colour,
  }));
  return createHash("sha256")
    .update(source)
    .update(JSON.stringify({ fronts, frameSizes, frameCount }))
    .digest("hex")
    .slice(0, 8);
}

async function pool<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const item = items[next++] as T;
      await work(item);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

export async function generateFrames({
  catalogue,
  outDir,
  log = console.log,
}: GenerateOptions): Promise<GenerateResult> {
  const started = performance.now();
  const version = await framesVersion(catalogue);
  const versionFile = join(outDir, "version.txt");
  const current = await readFile(versionFile, "utf8").catch(() => "");
  if (current.trim() === version) {
    log(`360 frames: up to date (version ${version}) in ${outDir}`);
    return { version, skipped: true, images: 0 };
  }

  const fronts = catalogue.fronts();
  await mkdir(outDir, { recursive: true });
  const wanted = new Set(fronts.map((f) => f.id));
  for (const entry of await readdir(outDir, { withFileTypes: true })) {
    if (entry.isDirectory() && !wanted.has(entry.name)) {
      await rm(join(outDir, entry.name), { recursive: true, force: true });
    }
  }
  for (const front of fronts) {
    for (const size of frameSizes) await mkdir(join(outDir, front.id, String(size)), { recursive: true });
  }

  const tasks = fronts.flatMap((front) =>
    Array.from({ length: frameCount }, (_, i) => ({ front, n: i + 1 })),
  );
  await pool(tasks, concurrency, async ({ front, n }) => {
    const svg = Buffer.from(frameSvg(front, ((n - 1) * 2 * Math.PI) / frameCount));
    await Promise.all(
      frameSizes.map((size) =>
        sharp(svg, { density: (72 * size) / canvas })
          .jpeg(jpeg)
          .toFile(join(outDir, front.id, String(size), `${n}.jpg`)),
      ),
    );
  });

  // Written last: an interrupted run leaves the old version (or none), so the next run starts over.
  await writeFile(versionFile, `${version}\n`);
  const images = tasks.length * frameSizes.length;
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  log(
    `360 frames: ${images} images for ${fronts.length} fronts in ${seconds} s (version ${version}) in ${outDir}`,
  );
  return { version, skipped: false, images };
}

if (process.argv[1] && resolve(process.argv[1]) === ownPath) {
  const catalogue = loadCatalogue(
    resolve(projectRoot, process.env.CATALOGUE_PATH ?? "content/catalogue.json"),
  );
  const outDir = resolve(projectRoot, process.env.FRAMES_DIR ?? "static/360");
  await generateFrames({ catalogue, outDir });
}
