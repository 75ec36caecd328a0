import zlib from 'node:zlib';
import yazl from 'yazl';

/**
 * ChatGPT and Claude exports made in code, in the shapes their exports have (docs/ARCHITECTURE.md#chat-import),
 * and ZIPs of them, honest or not: for the import's tests and its end-to-end journey.
 */

export interface GptNode {
  id: string;
  parent: string | null;
  role: 'user' | 'assistant' | 'system' | 'tool';
  /** The text (one part), unless `parts` or `contentType` say otherwise. */
  text?: string;
  parts?: unknown[];
  contentType?: string;
  /** Epoch seconds, as ChatGPT writes them (floats). */
  time?: number | null;
  hidden?: boolean;
  recipient?: string;
}

/** One ChatGPT conversation: `mapping` with a message-less root, as the export has. */
export function chatGptConversation(opts: {
  id: string;
  title: string | null;
  createTime: number;
  updateTime: number;
  nodes: GptNode[];
}): Record<string, unknown> {
  const ROOT = 'client-created-root';
  const mapping: Record<string, unknown> = {
    [ROOT]: { id: ROOT, message: null, parent: null, children: [] as string[] },
  };
  for (const n of opts.nodes) {
    mapping[n.id] = {
      id: n.id,
      parent: n.parent ?? ROOT,
      children: [] as string[],
      message: {
        id: n.id,
        author: { role: n.role, name: null, metadata: {} },
        create_time: n.time === undefined ? null : n.time,
        update_time: null,
        content: { content_type: n.contentType ?? 'text', parts: n.parts ?? [n.text ?? ''] },
        status: 'finished_successfully',
        end_turn: n.role === 'assistant' ? true : null,
        weight: 1,
        metadata: n.hidden ? { is_visually_hidden_from_conversation: true } : {},
        recipient: n.recipient ?? 'all',
      },
    };
  }
  for (const n of opts.nodes) {
    const parent = mapping[n.parent ?? ROOT] as { children: string[] } | undefined;
    parent?.children.push(n.id);
  }
  return {
    title: opts.title,
    create_time: opts.createTime,
    update_time: opts.updateTime,
    mapping,
    moderation_results: [],
    current_node: opts.nodes.at(-1)?.id ?? ROOT,
    plugin_ids: null,
    conversation_id: opts.id,
    conversation_template_id: null,
    gizmo_id: null,
    is_archived: false,
    safe_urls: [],
    default_model_slug: 'gpt-4o',
    id: opts.id,
  };
}

/** 2023-11-14T22:13:20Z: the fixtures' first moment, in ChatGPT's epoch seconds. */
export const T0 = 1_700_000_000;

/** A simple ChatGPT conversation: a question and its answer. */
export function simpleChatGpt(
  id: string,
  title: string,
  question = 'Olá?',
  answer = 'Olá! Como posso ajudar?',
) {
  return chatGptConversation({
    id,
    title,
    createTime: T0,
    updateTime: T0 + 60,
    nodes: [
      { id: `${id}-u`, parent: null, role: 'user', text: question, time: T0 + 1.25 },
      { id: `${id}-a`, parent: `${id}-u`, role: 'assistant', text: answer, time: T0 + 2.5 },
    ],
  });
}

/**
 * A ChatGPT conversation with branches: a regenerated answer (a1, a1b under u1), an edited
 * question (u2, u2b under a1b), a hidden system message, a tool call with its output, and an image.
 * Kept: u1 → {a1, a1b}; a1b → {u2 → a2, u2b → a3}.
 */
export function branchedChatGpt(id = 'conv-branches', title = 'Capitais') {
  return chatGptConversation({
    id,
    title,
    createTime: T0,
    updateTime: T0 + 600,
    nodes: [
      { id: 'sys', parent: null, role: 'system', text: '', time: null, hidden: true },
      { id: 'u1', parent: 'sys', role: 'user', text: 'Qual a capital da França?', time: T0 + 10.5 },
      { id: 'a1', parent: 'u1', role: 'assistant', text: 'Paris.', time: T0 + 11 },
      { id: 'a1b', parent: 'u1', role: 'assistant', text: 'A capital da França é Paris.', time: T0 + 20 },
      { id: 'u2', parent: 'a1b', role: 'user', text: 'E da Itália?', time: T0 + 30 },
      {
        id: 'a2call',
        parent: 'u2',
        role: 'assistant',
        contentType: 'code',
        parts: undefined,
        text: 'print("Roma")',
        time: T0 + 31,
        recipient: 'python',
      },
      {
        id: 'a2out',
        parent: 'a2call',
        role: 'tool',
        contentType: 'execution_output',
        text: 'Roma',
        time: T0 + 32,
      },
      { id: 'a2', parent: 'a2out', role: 'assistant', text: 'Roma.', time: T0 + 33 },
      {
        id: 'u2b',
        parent: 'a1b',
        role: 'user',
        contentType: 'multimodal_text',
        parts: [
          {
            content_type: 'image_asset_pointer',
            asset_pointer: 'file-service://file-abc',
            width: 10,
            height: 10,
          },
          'E da Espanha?',
        ],
        time: T0 + 40,
      },
      { id: 'a3', parent: 'u2b', role: 'assistant', text: 'Madri.', time: T0 + 41 },
    ],
  });
}

export interface ClaudeMessage {
  uuid: string;
  sender: 'human' | 'assistant';
  text: string;
  at: string;
  parent?: string;
  files?: string[];
}

/** One Claude conversation; `parent` given on any message makes it a newer, branched export. */
export function claudeConversation(opts: {
  uuid: string;
  name: string;
  createdAt: string;
  updatedAt: string;
  messages: ClaudeMessage[];
}): Record<string, unknown> {
  return {
    uuid: opts.uuid,
    name: opts.name,
    created_at: opts.createdAt,
    updated_at: opts.updatedAt,
    account: { uuid: 'acc-1' },
    chat_messages: opts.messages.map((m) => ({
      uuid: m.uuid,
      text: m.text,
      content: [{ start_timestamp: m.at, stop_timestamp: m.at, type: 'text', text: m.text, citations: [] }],
      sender: m.sender,
      created_at: m.at,
      updated_at: m.at,
      attachments: [],
      files: (m.files ?? []).map((file_name) => ({ file_name })),
      ...(m.parent !== undefined ? { parent_message_uuid: m.parent } : {}),
    })),
  };
}

/** A Claude conversation in order (no parents): a question and its answer. */
export function simpleClaude(uuid: string, name: string) {
  return claudeConversation({
    uuid,
    name,
    createdAt: '2024-03-01T10:00:00.000000Z',
    updatedAt: '2024-03-01T10:05:00.000000Z',
    messages: [
      { uuid: `${uuid}-1`, sender: 'human', text: 'Resuma a Odisseia.', at: '2024-03-01T10:00:01.000000Z' },
      {
        uuid: `${uuid}-2`,
        sender: 'assistant',
        text: 'Ulisses volta para casa.',
        at: '2024-03-01T10:00:05.000000Z',
      },
    ],
  });
}

export const json = (value: unknown) => Buffer.from(JSON.stringify(value));

/** A ZIP of `files` (deflated), as an export is. */
export function zipOf(files: Record<string, Buffer | string>): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  for (const [name, data] of Object.entries(files)) {
    zip.addBuffer(typeof data === 'string' ? Buffer.from(data) : data, name, { mtime: new Date(T0 * 1000) });
  }
  zip.end();
  return collect(zip.outputStream);
}

interface RawEntry {
  name: string;
  /** 0 stored, 8 deflated. */
  method: 0 | 8;
  data: Buffer;
  crc: number;
  size: number;
}

/** A ZIP written here, byte by byte (no ZIP64): for entries yazl would take long to write, or could not. */
function rawZip(entries: readonly RawEntry[]): Buffer {
  const out: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const e of entries) {
    const name = Buffer.from(e.name);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4); // version needed
    local.writeUInt16LE(e.method, 8);
    local.writeUInt32LE(e.crc >>> 0, 14);
    local.writeUInt32LE(e.data.length, 18);
    local.writeUInt32LE(e.size >>> 0, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(e.method, 10);
    central.writeUInt32LE(e.crc >>> 0, 16);
    central.writeUInt32LE(e.data.length, 20);
    central.writeUInt32LE(e.size >>> 0, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    out.push(local, name, e.data);
    centrals.push(central, name);
    offset += local.length + name.length + e.data.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...out, directory, end]);
}

/** A ZIP of `files` stored as they are (no compression), written at once however many there are. */
export function storedZip(files: Record<string, Buffer | string>): Buffer {
  return rawZip(
    Object.entries(files).map(([name, content]) => {
      const data = typeof content === 'string' ? Buffer.from(content) : content;
      return { name, method: 0, data, crc: zlib.crc32(data), size: data.length };
    }),
  );
}

/**
 * A ZIP with one entry that unpacks to `mib` MiB of zeros, about 1,000 times its size: one deflated
 * MiB of zeros repeated (each ends with a full flush, so copies chain into one valid stream).
 * Seconds faster than deflating hundreds of MiB.
 */
export function zeroBomb(name: string, mib: number): Buffer {
  const zeros = Buffer.alloc(1024 * 1024);
  const block = zlib.deflateRawSync(zeros, { finishFlush: zlib.constants.Z_FULL_FLUSH });
  const data = Buffer.concat([
    ...Array.from({ length: mib }, () => block),
    zlib.deflateRawSync(Buffer.alloc(0)),
  ]);
  let crc = 0;
  for (let i = 0; i < mib; i++) crc = zlib.crc32(zeros, crc);
  return rawZip([{ name, method: 8, data, crc, size: mib * zeros.length }]);
}

/**
 * `zip` with the central directory's uncompressed size of every entry set to `declared`: a ZIP
 * whose headers lie about what it unpacks to.
 */
export function lyingSizes(zip: Buffer, declared: number): Buffer {
  const out = Buffer.from(zip);
  for (let i = out.indexOf('PK\x01\x02'); i >= 0; i = out.indexOf('PK\x01\x02', i + 4)) {
    out.writeUInt32LE(declared, i + 24);
  }
  return out;
}

async function collect(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}
