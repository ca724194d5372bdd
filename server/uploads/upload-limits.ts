/**
 * How much a shopper may upload. A phone photo is 2-12 MB; 25 MB leaves room for a
 * camera's JPEG. A photo book has at most 100 pages here, one photo each.
 */
export const uploadLimits = {
  maxFileBytes: 25 * 1024 * 1024,
  /** Files in one form post (the JavaScript uploader sends one file per request). */
  maxFilesPerRequest: 30,
  maxPhotosPerProject: 100,
  /** Everything one shopper keeps with us, projects included: bounds the disk a visitor can fill. */
  maxPhotosPerShopper: 500,
  /**
   * Photo books one shopper keeps with us. Every new one must start with a photo, but
   * photos can be removed again, so without a cap a browser could pile up empty projects.
   * 50 is far more than anyone works on at once.
   */
  maxProjectsPerShopper: 50,
} as const;

export const megabytes = (bytes: number) => Math.round(bytes / (1024 * 1024));
