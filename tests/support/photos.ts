import sharp from "sharp";

/** Real photos made on the spot (nothing binary in the repository), and files that only pretend. */
export const photos = {
  jpeg: (width = 1200, height = 900, colour = "#3a7bd5") =>
    sharp({ create: { width, height, channels: 3, background: colour } })
      .jpeg()
      .toBuffer(),
  png: (width = 900, height = 1200) =>
    sharp({ create: { width, height, channels: 4, background: "#e0a030" } })
      .png()
      .toBuffer(),
  webp: () =>
    sharp({ create: { width: 800, height: 800, channels: 3, background: "#2f5d3a" } })
      .webp()
      .toBuffer(),
  /** A text file with a photo's name. */
  textAsJpeg: async () => Buffer.from("Boodschappen: melk, brood, kaas\n"),
  /** The start of a JPEG and then nothing: right magic bytes, unreadable content. */
  truncatedJpeg: async () => (await photos.jpeg()).subarray(0, 120),
  /** An HEIF container with HEVC-coded content, as an iPhone writes: the box header only. */
  heicHeader: async () =>
    Buffer.concat([
      Buffer.from([0, 0, 0, 24]),
      Buffer.from("ftypheic"),
      Buffer.from([0, 0, 0, 0]),
      Buffer.from("mif1heic"),
      Buffer.alloc(64),
    ]),
};

export interface Part {
  name: string;
  value?: string;
  file?: { filename: string; data: Buffer; type?: string };
}

/** A multipart/form-data body as a browser sends it, parts in the given order. */
export function multipart(parts: Part[]): { payload: Buffer; contentType: string } {
  const boundary = `----shop-test-${Math.random().toString(16).slice(2)}`;
  const chunks: Buffer[] = [];
  for (const part of parts) {
    chunks.push(Buffer.from(`--${boundary}\r\n`));
    if (part.file) {
      chunks.push(
        Buffer.from(
          `Content-Disposition: form-data; name="${part.name}"; filename="${part.file.filename}"\r\n` +
            `Content-Type: ${part.file.type ?? "application/octet-stream"}\r\n\r\n`,
        ),
        part.file.data,
        Buffer.from("\r\n"),
      );
    } else {
      chunks.push(
        Buffer.from(`Content-Disposition: form-data; name="${part.name}"\r\n\r\n${part.value ?? ""}\r\n`),
      );
    }
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}
