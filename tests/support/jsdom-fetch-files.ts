import { File as NodeFile } from 'node:buffer';

// Under jsdom, `File` on the global is jsdom's, while `Request`/`Response` (and so msw, which the UI tests answer
// requests with) are Node's fetch. Since Node 24 that fetch looks `File` up on the global each time it makes a
// multipart part — wrapping a Blob appended to its FormData, parsing a multipart body — and then checks the part
// against its own File class: with jsdom's in place, a file sent through XMLHttpRequest reached the handler without
// its bytes, and `request.formData()` in a handler threw. A browser has a single File, so the client code is right
// as it is; here Node's File is on the global while Node's fetch makes those parts, and jsdom's everywhere else.
// (Node 20 and 22 took their File once at start-up: nothing changes there.) Loaded as a setup file, before msw
// subclasses `Request`.

/** Puts Node's File on the global; the function it returns puts jsdom's back. */
function nodeFileOnTheGlobal(): () => void {
  const jsdomFile = globalThis.File;
  globalThis.File = NodeFile as unknown as typeof File;
  return () => {
    globalThis.File = jsdomFile;
  };
}

// Sending: building a `Request` is when vitest's jsdom environment copies a jsdom FormData body into Node's, and
// Node wraps each Blob of it in a File.
globalThis.Request = new Proxy(globalThis.Request, {
  construct(target, args: ConstructorParameters<typeof Request>, newTarget) {
    const restore = nodeFileOnTheGlobal();
    try {
      return Reflect.construct(target, args, newTarget) as object;
    } finally {
      restore();
    }
  },
});

// Receiving: `formData()` of a multipart body reads the bytes first (under jsdom's File: that may wait on I/O), then
// parses them from memory, which only takes microtasks, under Node's. The parts are Node's Files, as on Node 20.
const parseBuffered = Response.prototype.formData;
function definerOf(object: object, key: string): Record<string, unknown> {
  let owner = object;
  while (!Object.hasOwn(owner, key)) owner = Object.getPrototypeOf(owner) as object;
  return owner as Record<string, unknown>;
}
for (const body of [new Request('http://localhost/'), new Response()]) {
  const owner = definerOf(body, 'formData');
  const parse = owner.formData as (this: Body) => Promise<FormData>;
  owner.formData = async function formData(this: Request | Response): Promise<FormData> {
    const type = this.headers.get('content-type') ?? '';
    if (!/^multipart\/form-data\b/i.test(type)) return parse.call(this);
    const buffered = new Response(await this.arrayBuffer(), { headers: { 'content-type': type } });
    const restore = nodeFileOnTheGlobal();
    try {
      return await parseBuffered.call(buffered);
    } finally {
      restore();
    }
  };
}
