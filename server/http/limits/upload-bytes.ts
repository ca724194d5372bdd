import { normalizeIP } from "@fastify/rate-limit";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { SharedCounters } from "./shared-counters.ts";

/**
 * Bytes of photos one client address may have stored per hour (UPLOAD_BYTES_PER_CLIENT_MB).
 * Counting photos alone let a client store 25 MB files a thousand times an hour, each from a
 * new shopper (no cookie); counting bytes per address bounds the disk it can fill whatever
 * cookies it sends. An IPv6 client counts per /64 (normalizeIP), the block one household or
 * one server gets, so stepping through its own addresses does not help.
 */
export interface UploadBytesLimit {
  /**
   * Counts a file's bytes before anything of it is stored, so parallel uploads each see the
   * others'. Over the limit: nothing counted, the seconds to wait (Retry-After is set).
   * Within it: a way to give the bytes back should the file not be kept after all.
   */
  take(
    request: FastifyRequest,
    reply: FastifyReply,
    bytes: number,
  ): Promise<{ wait: number } | { giveBack(): Promise<void> }>;
}

const hour = 3_600_000;

export function uploadBytesPerClient(counters: SharedCounters, maxBytes: number): UploadBytesLimit {
  const perClient = counters.amounts("upload-bytes", hour);
  const nothingToGiveBack = { giveBack: async () => {} };
  return {
    async take(request, reply, bytes) {
      const client = normalizeIP(request.ip);
      const counted = await perClient.add(client, bytes);
      // The counters' store does not answer: let the photo through, as every rate limit does.
      if (!counted) return nothingToGiveBack;
      if (counted.total > maxBytes) {
        await perClient.add(client, -bytes);
        const wait = Math.max(1, Math.ceil(counted.ttlMs / 1000));
        reply.header("retry-after", String(wait));
        request.log.info({ client }, "photo upload: client over its bytes per hour");
        return { wait };
      }
      let givenBack = false;
      return {
        async giveBack() {
          if (givenBack) return;
          givenBack = true;
          await perClient.add(client, -bytes);
        },
      };
    },
  };
}
