// Reads a File block after block on a worker thread, a few blocks ahead of the
// parse. Chromium copies a Blob's bytes into an ArrayBuffer on the thread that
// asked for them: read on the page's thread, a large file's blocks took 0.4-0.7 s
// of its load between the parse's tasks (docs/performance.md). The worker reads
// them and hands each ArrayBuffer over (transferred, not copied). Where a worker
// cannot be had, or fails, the blocks are read on the page's thread: the same
// bytes, the same result.

const WORKER_SOURCE = `
onmessage = async ({ data: { id, file, start, end } }) => {
  try {
    const buffer = await file.slice(start, end).arrayBuffer();
    postMessage({ id, buffer }, [buffer]);
  } catch (error) {
    postMessage({ id, error: String((error && error.message) || error) });
  }
};
`;

const readHere = (file, start, end) => file.slice(start, end).arrayBuffer();

class BlockReader {
  constructor(file, blockBytes, ahead) {
    this.file = file;
    this.blockBytes = blockBytes;
    this.ahead = ahead;
    this.requested = 0;
    // Blocks asked for, oldest first: promises of their ArrayBuffers.
    this.queue = [];
    this.pending = new Map();
    this.nextId = 0;
    this.failed = false;
    this.fromWorker = 0;
    this.url = URL.createObjectURL(new Blob([WORKER_SOURCE], { type: "text/javascript" }));
    try {
      this.worker = new Worker(this.url);
    } catch {
      this.fail();
      return;
    }
    this.worker.onmessage = ({ data }) => {
      const request = this.pending.get(data.id);
      if (request === undefined) return;
      this.pending.delete(data.id);
      if (data.error === undefined) {
        this.fromWorker += 1;
        request.resolve(data.buffer);
      } else {
        request.reject(new Error(data.error));
      }
    };
    // The worker could not start (a policy forbids it, say): what it was asked is
    // read here, and so is everything after.
    this.worker.onerror = (event) => {
      event.preventDefault();
      this.fail();
    };
  }

  fail() {
    this.failed = true;
    this.close();
    for (const request of this.pending.values()) {
      readHere(this.file, request.start, request.end).then(request.resolve, request.reject);
    }
    this.pending.clear();
  }

  read(start, end) {
    if (this.failed) return readHere(this.file, start, end);
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { start, end, resolve, reject });
      this.worker.postMessage({ id, file: this.file, start, end });
    });
  }

  // A Promise of the next block's ArrayBuffer, or of `undefined` after the last one.
  // Keeps `ahead` blocks being read.
  next() {
    while (this.queue.length < this.ahead && this.requested < this.file.size) {
      const end = Math.min(this.file.size, this.requested + this.blockBytes);
      const block = this.read(this.requested, end);
      // Handled where it is awaited; a block a cancelled load leaves is not an error.
      block.catch(() => {});
      this.queue.push(block);
      this.requested = end;
    }
    return this.queue.length > 0 ? this.queue.shift() : Promise.resolve(undefined);
  }

  // Blocks the worker has read so far.
  blocksFromWorker() {
    return this.fromWorker;
  }

  close() {
    if (this.worker !== undefined) this.worker.terminate();
    if (this.url !== null) URL.revokeObjectURL(this.url);
    this.url = null;
  }
}

export function newBlockReader(file, blockBytes, ahead) {
  return new BlockReader(file, blockBytes, ahead);
}
