import type { BuildOptions, Metafile } from "esbuild";

export const root: string;
export const outdir: string;
export const entries: Record<string, string>;
export function esbuildOptions(options: { production: boolean }): BuildOptions & { metafile: true };
export function cleanOutdir(): void;
export function writeManifest(metafile: Metafile): Record<string, string>;
