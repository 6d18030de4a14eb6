/**
 * The tools the example agent runs: reading and listing files inside one directory (a
 * sandbox the server fills at start), nothing else. Tool arguments come from a model and are
 * untrusted: a path must stay inside the sandbox after resolving `..` and symlinks, reads
 * and listings are bounded, and every other tool is answered "not run" — no shell, no
 * writes, no network.
 */
import { mkdir, mkdtemp, readdir, readFile, realpath, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';

/** At most this many bytes of a file are returned. */
const maxReadBytes = 64 * 1024;
/** At most this many entries of a directory are listed. */
const maxEntries = 200;

export interface ToolOutcome {
  readonly output: unknown;
  readonly isError: boolean;
}

/** Tool names (lower-cased) that read a file, and that list a directory. */
const readNames = new Set(['read', 'read_file']);
const listNames = new Set(['ls', 'list', 'list_files', 'glob']);

/** The tools a live model is offered (OpenAI Chat Completions `tools`). */
export const liveTools = [
  {
    type: 'function',
    function: {
      name: 'read_file',
      description: 'Read a text file of the project (UTF-8, at most 64 KiB).',
      parameters: {
        type: 'object',
        properties: { file_path: { type: 'string', description: 'Relative to the project root' } },
        required: ['file_path'],
      },
    },
  },
  {
    type: 'function',
    function: {
      name: 'list_files',
      description: 'List the entries of a directory of the project.',
      parameters: {
        type: 'object',
        properties: { path: { type: 'string', description: 'Relative to the project root' } },
        required: ['path'],
      },
    },
  },
] as const;

export class Sandbox {
  private constructor(readonly root: string) {}

  /** A fresh sandbox in the OS temp directory, holding `files` (path → text). */
  static async create(files: Readonly<Record<string, string>>): Promise<Sandbox> {
    const root = await realpath(await mkdtemp(join(tmpdir(), 'callfold-agent-')));
    const sandbox = new Sandbox(root);
    for (const [path, text] of Object.entries(files)) {
      const target = sandbox.#lexical(path);
      if (target === undefined) throw new RangeError(`sandbox file ${path} is outside`);
      await mkdir(dirname(target), { recursive: true });
      await writeFile(target, text);
    }
    return sandbox;
  }

  /** Deletes the sandbox and what it holds. */
  dispose(): Promise<void> {
    return rm(this.root, { recursive: true, force: true });
  }

  /** Runs one tool call; never throws (a refusal is an error result). */
  async run(name: string, args: string | Record<string, unknown>): Promise<ToolOutcome> {
    let input: Record<string, unknown>;
    try {
      const parsed: unknown = typeof args === 'string' ? JSON.parse(args || '{}') : args;
      if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
        return { output: 'arguments must be a JSON object', isError: true };
      }
      input = parsed as Record<string, unknown>;
    } catch {
      return { output: 'arguments are not valid JSON', isError: true };
    }
    const key = name.toLowerCase();
    try {
      if (readNames.has(key)) return await this.#read(input.file_path ?? input.path, input.limit);
      if (listNames.has(key)) return await this.#list(input.path ?? '.');
    } catch (error) {
      const code = (error as { code?: string }).code;
      return {
        output: code === 'ENOENT' ? 'no such file' : 'cannot read that path',
        isError: true,
      };
    }
    return {
      output: `Not run: this example runs only file reads and listings (${name}).`,
      isError: false,
    };
  }

  async #read(path: unknown, limit: unknown): Promise<ToolOutcome> {
    const target = await this.#inside(path);
    if (target === undefined) return { output: 'path is outside the project', isError: true };
    const info = await stat(target);
    if (!info.isFile()) return { output: 'not a file', isError: true };
    const bytes = await readFile(target);
    let text = bytes.subarray(0, maxReadBytes).toString('utf8');
    if (typeof limit === 'number' && Number.isInteger(limit) && limit > 0) {
      text = text.split('\n').slice(0, limit).join('\n');
    }
    const cut =
      bytes.length > maxReadBytes ? `\n[… ${bytes.length - maxReadBytes} more bytes]` : '';
    return { output: text + cut, isError: false };
  }

  async #list(path: unknown): Promise<ToolOutcome> {
    const target = await this.#inside(path);
    if (target === undefined) return { output: 'path is outside the project', isError: true };
    const entries = await readdir(target, { withFileTypes: true });
    const names = entries
      .map((entry) => (entry.isDirectory() ? `${entry.name}/` : entry.name))
      .sort()
      .slice(0, maxEntries);
    return { output: names.join('\n'), isError: false };
  }

  /** The path inside the sandbox, by its text alone: undefined for anything escaping it. */
  #lexical(path: unknown): string | undefined {
    if (
      typeof path !== 'string' ||
      path.length === 0 ||
      path.length > 1024 ||
      path.includes('\0')
    ) {
      return undefined;
    }
    const target = resolve(this.root, isAbsolute(path) ? `.${path}` : path);
    const rel = relative(this.root, target);
    return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel))
      ? target
      : undefined;
  }

  /** The real path inside the sandbox (symlinks resolved), or undefined. */
  async #inside(path: unknown): Promise<string | undefined> {
    const target = this.#lexical(path);
    if (target === undefined) return undefined;
    const real = await realpath(target);
    const rel = relative(this.root, real);
    return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel))
      ? real
      : undefined;
  }
}
