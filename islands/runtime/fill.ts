/** Fills {name} placeholders in a text from the server ("Foto {index} van {count}"); unknown names stay as they are. */
export function fill(text: string, values: Record<string, string | number>): string {
  return text.replace(/\{(\w+)\}/g, (whole, name: string) => (name in values ? String(values[name]) : whole));
}
