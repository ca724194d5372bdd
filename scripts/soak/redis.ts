// The soak's own corner of Redis: the instances' counters under a key prefix of their own,
// so they never meet another shop's or test's counters for 127.0.0.1, and are removed after.
import { randomBytes } from "node:crypto";
import { Redis } from "ioredis";

export interface SoakRedis {
  /** REDIS_URL for the instances: the server with the soak's key prefix (ioredis reads it from the URL). */
  url: string;
  /** Deletes every key under the prefix; gives how many there were. */
  clear(): Promise<number>;
}

export async function soakRedis(serverUrl: string): Promise<SoakRedis> {
  const prefix = `soak_${randomBytes(6).toString("hex")}:`;
  const client = new Redis(serverUrl, { lazyConnect: true, connectTimeout: 2000, maxRetriesPerRequest: 1 });
  try {
    await client.connect();
  } catch (err) {
    client.disconnect();
    throw new Error(`Redis at ${serverUrl}: ${err instanceof Error ? err.message : String(err)}`);
  }
  const url = new URL(serverUrl);
  url.searchParams.set("keyPrefix", prefix);
  return {
    url: url.toString(),
    async clear() {
      let removed = 0;
      for await (const keys of client.scanStream({ match: `${prefix}*`, count: 500 })) {
        const batch = keys as string[];
        if (batch.length > 0) removed += await client.del(...batch);
      }
      client.disconnect();
      return removed;
    },
  };
}
