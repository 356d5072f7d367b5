/**
 * Images under a host's Content-Security-Policy. The spec's default CSP lets an app show `data:`
 * images, but a host may be stricter (the MCP Inspector 2.x allows no image source at all unless the
 * app declares domains). Decoding the bytes ourselves is not a load the policy governs: an image the
 * policy refused is drawn on a canvas instead, the same size, with the same label.
 */

const DATA_URL = /^data:(image\/(?:png|jpeg|gif|webp|bmp));base64,(.*)$/s;

/** Watch the images under `root`: any that the page may not load is drawn on a canvas. */
export function drawRefusedImages(root: HTMLElement): void {
  root.querySelectorAll('img').forEach(image => {
    if (image.complete && image.naturalWidth === 0 && image.src) {
      void redraw(image);
    } else {
      image.addEventListener('error', () => void redraw(image), { once: true });
    }
  });
}

async function redraw(image: HTMLImageElement): Promise<void> {
  const match = DATA_URL.exec(image.src);
  if (!match || typeof createImageBitmap !== 'function') {
    return;
  }
  const bytes = Uint8Array.from(atob(match[2]), c => c.charCodeAt(0));
  let bitmap: ImageBitmap;
  try {
    bitmap = await createImageBitmap(new Blob([bytes], { type: match[1] }));
  } catch {
    return; // not an image after all: the browser's broken-image box stays
  }
  const canvas = document.createElement('canvas');
  canvas.className = image.className;
  canvas.width = bitmap.width;
  canvas.height = bitmap.height;
  canvas.setAttribute('role', 'img');
  canvas.setAttribute('aria-label', image.alt);
  canvas.getContext('2d')?.drawImage(bitmap, 0, 0);
  bitmap.close();
  image.replaceWith(canvas);
}
