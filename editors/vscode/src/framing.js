'use strict';
// The LSP base protocol on bytes: `Content-Length: N\r\n\r\n` then N bytes of UTF-8 JSON.
// Lengths are bytes, never UTF-16 units; a chunk may hold part of a message or several.

/** The framed bytes of one JSON-RPC message. */
function encode(message) {
  const body = Buffer.from(JSON.stringify(message), 'utf8');
  return Buffer.concat([Buffer.from(`Content-Length: ${body.length}\r\n\r\n`, 'ascii'), body]);
}

const headerLimit = 8192;

/**
 * Reads framed messages from chunks of bytes as they arrive. `push(chunk)` returns the messages
 * completed by that chunk, in order; a broken header throws an Error naming it (the stream cannot
 * be trusted after that: the connection ends).
 */
class MessageReader {
  constructor() {
    this.buffer = Buffer.alloc(0);
    this.length = -1; // the body length once the header is read
  }

  /** The messages this chunk completes. - Complexity: O(bytes) per chunk, amortized. */
  push(chunk) {
    this.buffer = this.buffer.length === 0 ? chunk : Buffer.concat([this.buffer, chunk]);
    const messages = [];
    for (;;) {
      if (this.length < 0) {
        const end = this.buffer.indexOf('\r\n\r\n');
        if (end < 0) {
          if (this.buffer.length > headerLimit) throw new Error(`framing: a header block over ${headerLimit} bytes`);
          break;
        }
        this.length = parseHeader(this.buffer.subarray(0, end).toString('ascii'));
        this.buffer = this.buffer.subarray(end + 4);
      }
      if (this.buffer.length < this.length) break;
      const body = this.buffer.subarray(0, this.length).toString('utf8');
      this.buffer = this.buffer.subarray(this.length);
      this.length = -1;
      try {
        messages.push(JSON.parse(body));
      } catch (error) {
        throw new Error(`framing: a body that is not JSON (${error.message})`);
      }
    }
    return messages;
  }

  /** Bytes received that do not make a whole message yet. */
  get pending() { return this.buffer.length; }
}

/** The Content-Length of a header block (lines without the blank one). */
function parseHeader(text) {
  let length = -1;
  for (const line of text.split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon < 0) throw new Error(`framing: a header line without a colon: ${JSON.stringify(line)}`);
    if (line.slice(0, colon).trim().toLowerCase() !== 'content-length') continue;
    const value = line.slice(colon + 1).trim();
    if (!/^[0-9]+$/.test(value)) throw new Error(`framing: Content-Length is not a number: ${JSON.stringify(value)}`);
    length = Number(value);
  }
  if (length < 0) throw new Error('framing: a header block without Content-Length');
  return length;
}

module.exports = { encode, MessageReader };
