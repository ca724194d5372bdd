import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { FastifyInstance } from "fastify";
import { isFrameNumber, isFrameSize } from "../domain/viewer-frames.ts";
import type { Services } from "../http/services.ts";

const immutable = "public, max-age=31536000, immutable";
/** An address without the current version may be an old page: let it go stale soon. */
const shortLived = "public, max-age=300";

/** The version the frame URLs carry (?v=), written by scripts/generate-360-frames.ts; "0" before any run. */
export function readFramesVersion(framesDir: string): string {
  try {
    return readFileSync(join(framesDir, "version.txt"), "utf8").trim() || "0";
  } catch {
    return "0";
  }
}

/**
 * The image host's frame path, served by the shop itself when IMAGE_HOST is empty.
 * Every part of the address is checked against what exists before the file system is
 * touched, so no address can reach outside the frames directory.
 */
export function viewerFrameRoutes(app: FastifyInstance, services: Services): void {
  const { catalogue, config } = services;
  const frontIds = new Set(catalogue.fronts().map((f) => f.id));
  const version = readFramesVersion(config.framesDir);

  app.get<{ Params: { frontId: string; size: string; file: string }; Querystring: { v?: unknown } }>(
    "/pages/productpage/360/:frontId/:size/:file",
    {
      // @fastify/static's setHeaders gives every file it sends a default cache-control;
      // this runs after it, so the frame's own caching rule wins.
      onSend: async (request, reply, payload) => {
        if (reply.statusCode === 200 || reply.statusCode === 304) {
          reply.header("cache-control", request.query.v === version ? immutable : shortLived);
        }
        return payload;
      },
    },
    async (request, reply) => {
      const { frontId, size, file } = request.params;
      // One spelling per frame ("7.jpg", never "07.jpg"), so caches hold each image once.
      const n = /^[1-9]\d?\.jpg$/.test(file) ? Number(file.slice(0, -4)) : Number.NaN;
      if (
        !frontIds.has(frontId) ||
        !/^[1-9]\d*$/.test(size) ||
        !isFrameSize(Number(size)) ||
        !isFrameNumber(n)
      ) {
        return reply.callNotFound();
      }
      // A missing file (frames not generated yet) also ends in callNotFound, inside sendFile.
      reply.type("image/jpeg");
      return reply.sendFile(`${frontId}/${size}/${n}.jpg`, config.framesDir);
    },
  );
}
