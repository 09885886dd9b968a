import { UPLOAD_MIMES, type UploadMime } from './upload-file.js'

// DECISIONS §16's budget (a week's work synced within 2 minutes at 64 kbit/s, some 960 KB) leaves no room for a
// camera's 2 MB photo, so a photo kept for a ship's link is re-encoded on the device first: at most 1,600 px on
// its long side (an A4 page at some 190 dpi, legible) as a JPEG of quality 0.8. PDFs and small photos are kept as
// they are.

/** Photos up to this size are kept as taken. */
export const SHRINK_ABOVE_BYTES = 300 * 1024
export const LONG_SIDE_PX = 1600
const JPEG_QUALITY = 0.8

/**
 * The photo to keep: `file` re-encoded as a JPEG of at most LONG_SIDE_PX when it is larger than
 * SHRINK_ABOVE_BYTES (or of a type the service does not take, such as WebP or HEIC, that the browser decodes);
 * otherwise `file` itself. Its orientation is applied (createImageBitmap reads EXIF), so the result stands upright.
 */
export async function shrinkPhoto(file: File): Promise<File> {
  const foreign = !UPLOAD_MIMES.includes(file.type as UploadMime)
  if (!file.type.startsWith('image/') || (!foreign && file.size <= SHRINK_ABOVE_BYTES)) return file
  let bitmap: ImageBitmap
  try {
    bitmap = await createImageBitmap(file)
  } catch {
    // A type this browser cannot decode stays as it is (and is refused as before if the service does not take it).
    return file
  }
  const scale = Math.min(1, LONG_SIDE_PX / Math.max(bitmap.width, bitmap.height))
  const canvas = new OffscreenCanvas(Math.round(bitmap.width * scale), Math.round(bitmap.height * scale))
  canvas.getContext('2d')!.drawImage(bitmap, 0, 0, canvas.width, canvas.height)
  bitmap.close()
  const blob = await canvas.convertToBlob({ type: 'image/jpeg', quality: JPEG_QUALITY })
  if (!foreign && blob.size >= file.size) return file
  return new File([blob], `${file.name.replace(/\.[^.]*$/, '')}.jpg`, { type: 'image/jpeg', lastModified: file.lastModified })
}
