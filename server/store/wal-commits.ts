import { closeSync, openSync, readSync } from "node:fs";
import { endianness } from "node:os";

/**
 * The WAL index header, as SQLite documents it (sqlite.org/walformat.html): 48 bytes kept
 * twice at the start of the database's -shm file. A writer raises its change counter (and
 * moves its last frame) with every commit, before any reader can see the commit, and writes
 * the second copy before the first, so two equal copies are a header no writer was halfway
 * through. Every connection to the file, in any process, goes through it.
 */
const headerSize = 48;
const walIndexVersion = 3007000;
const isInitOffset = 12;
/** The header is written in the machine's own byte order. */
const readVersion =
  endianness() === "LE"
    ? (header: Buffer) => header.readUInt32LE(0)
    : (header: Buffer) => header.readUInt32BE(0);

export interface WalCommits {
  /**
   * The header now, as a stamp: the same bytes as an earlier stamp mean no commit since, on
   * any connection. Undefined where it cannot tell: no -shm file (not in WAL mode yet, or
   * not a file), a header being written, a format it does not know. The stamp is only
   * valid until the next call.
   */
  stamp(): Buffer | undefined;
  close(): void;
}

/**
 * Reads the WAL index header of `databaseFile`. The caller keeps a connection of its own open
 * on the file first: while one is open, SQLite never deletes or replaces the -shm file (the
 * last connection to close does that, under an exclusive lock no one else can then hold).
 */
export function walCommits(databaseFile: string): WalCommits {
  const both = Buffer.alloc(headerSize * 2);
  const first = both.subarray(0, headerSize);
  const second = both.subarray(headerSize);
  let fd: number | undefined;
  let closed = false;

  return {
    stamp() {
      if (closed) return undefined;
      if (fd === undefined) {
        try {
          fd = openSync(`${databaseFile}-shm`, "r");
        } catch {
          return undefined;
        }
      }
      if (readSync(fd, both, 0, both.length, 0) !== both.length) return undefined;
      if (readVersion(first) !== walIndexVersion || first[isInitOffset] !== 1) return undefined;
      return first.equals(second) ? first : undefined;
    },
    close() {
      closed = true;
      if (fd !== undefined) closeSync(fd);
      fd = undefined;
    },
  };
}
