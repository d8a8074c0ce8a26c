export const id = 182;
export const ids = [182];
export const modules = {

/***/ 39182:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {


// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  startDeploy: () => (/* binding */ startDeploy)
});

// UNUSED EXPORTS: ReleaseFailed, USER_AGENT, deploy, failureOf

// EXTERNAL MODULE: ./src/port.ts
var port = __webpack_require__(58676);
// EXTERNAL MODULE: ./src/advice.ts
var advice = __webpack_require__(96031);
// EXTERNAL MODULE: external "node:fs/promises"
var promises_ = __webpack_require__(51455);
// EXTERNAL MODULE: ./node_modules/@actions/exec/lib/exec.js + 3 modules
var exec = __webpack_require__(81260);
// EXTERNAL MODULE: ./src/errors.ts
var errors = __webpack_require__(83916);
;// CONCATENATED MODULE: ./src/build.ts
// The optional build-command: run before packing, in the workspace, its output streamed into its
// own log group. Run through @actions/exec, which splits arguments itself (quotes respected) and
// uses no shell, so the same command works on Linux, macOS and Windows runners. A command that
// needs shell syntax can say so: `bash -c "mvn -B package && cp ..."`.



async function runBuildCommand(command, cwd) {
    let code;
    try {
        code = await exec/* exec */.m(command, [], { cwd, ignoreReturnCode: true });
    }
    catch (error) {
        // @actions/exec throws when the program cannot be found or started.
        const why = error instanceof Error ? error.message : String(error);
        throw new errors/* InputError */.dz(`build-command '${command}' could not be started (${why}). Check the program name and that the job installs it (e.g. actions/setup-java for mvn).`);
    }
    if (code !== 0) {
        throw new errors/* InputError */.dz(`build-command '${command}' exited with code ${code}; nothing was uploaded. Its output is in the "Build" log group above.`);
    }
    port/* info */.pq(`build-command finished (exit code 0).`);
}

// EXTERNAL MODULE: ./src/cloud/api.ts
var cloud_api = __webpack_require__(69129);
// EXTERNAL MODULE: ./src/cloud/client.ts + 2 modules
var client = __webpack_require__(80846);
// EXTERNAL MODULE: ./src/cloud/login/choose.ts + 4 modules
var choose = __webpack_require__(25256);
// EXTERNAL MODULE: ./src/cloud/session.ts
var cloud_session = __webpack_require__(96885);
// EXTERNAL MODULE: external "node:os"
var external_node_os_ = __webpack_require__(48161);
// EXTERNAL MODULE: external "node:path"
var external_node_path_ = __webpack_require__(76760);
var external_node_path_default = /*#__PURE__*/__webpack_require__.n(external_node_path_);
;// CONCATENATED MODULE: ./src/archive/glob.ts


function hasGlobChars(pattern) {
    return /[*?[\]]/.test(pattern);
}
const REGEX_SYNTAX = /[\\^$.*+?()[\]{}|/]/;
const CLASS_SYNTAX = /[\\\]^[-]/;
const escapeChar = (c) => (REGEX_SYNTAX.test(c) ? `\\${c}` : c);
const escapeClassChar = (c) => (CLASS_SYNTAX.test(c) ? `\\${c}` : c);
/** The regex for one class body (between '[' and ']'), or undefined when the class matches nothing. */
function classToRegex(body) {
    let negate = false;
    let i = 0;
    if (body[0] === '!' || body[0] === '^') {
        negate = true;
        i = 1;
    }
    let out = '';
    for (; i < body.length; i++) {
        const c = body[i];
        const next = body[i + 2];
        if (body[i + 1] === '-' && next !== undefined) {
            if ((c.codePointAt(0) ?? 0) <= (next.codePointAt(0) ?? 0))
                out += `${escapeClassChar(c)}-${escapeClassChar(next)}`;
            i += 2;
        }
        else {
            out += escapeClassChar(c);
        }
    }
    if (out === '')
        return negate ? '[^]' : undefined;
    return negate ? `[^${out}]` : `[${out}]`;
}
/** A RegExp matching a whole name against one pattern segment. */
function segmentToRegExp(segment, caseInsensitive = false) {
    const chars = Array.from(segment);
    let re = '^';
    for (let i = 0; i < chars.length; i++) {
        const c = chars[i];
        if (c === '*') {
            while (chars[i + 1] === '*')
                i++;
            re += '.*';
        }
        else if (c === '?') {
            re += '.';
        }
        else if (c === '[') {
            // A ']' right after '[' (or '[!') belongs to the class.
            let j = i + 1;
            if (chars[j] === '!' || chars[j] === '^')
                j++;
            if (chars[j] === ']')
                j++;
            while (j < chars.length && chars[j] !== ']')
                j++;
            if (j >= chars.length) {
                re += '\\[';
            }
            else {
                re += classToRegex(chars.slice(i + 1, j)) ?? '(?!)';
                i = j;
            }
        }
        else {
            re += escapeChar(c);
        }
    }
    return new RegExp(`${re}$`, caseInsensitive ? 'isu' : 'su');
}
/** Resolves a pattern (absolute, or relative to cwd) and splits it into a literal base and glob segments. */
function splitPattern(pattern, cwd, pathApi = (external_node_path_default())) {
    const windows = pathApi.sep === '\\';
    const separators = windows ? /[\\/]+/ : /\/+/;
    const absolute = pathApi.isAbsolute(pattern) ? pattern : pathApi.join(cwd, pattern);
    const root = pathApi.parse(absolute).root;
    const parts = absolute
        .slice(root.length)
        .split(separators)
        .filter((part) => part !== '' && part !== '.');
    const resolved = [];
    for (const part of parts) {
        if (part === '..' && resolved.length > 0 && !hasGlobChars(resolved[resolved.length - 1]))
            resolved.pop();
        else if (part !== '..')
            resolved.push(part);
    }
    const firstGlob = resolved.findIndex(hasGlobChars);
    const literal = firstGlob === -1 ? resolved : resolved.slice(0, firstGlob);
    const segments = firstGlob === -1 ? [] : resolved.slice(firstGlob);
    // Collapse runs of '**' and let a trailing '**' mean "every file below".
    const collapsed = segments.filter((s, i) => !(s === '**' && segments[i - 1] === '**'));
    if (collapsed[collapsed.length - 1] === '**')
        collapsed.push('*');
    return { base: pathApi.join(root, ...literal), segments: collapsed };
}
async function kind(p) {
    try {
        const st = await (0,promises_.stat)(p);
        return st.isFile() ? 'file' : st.isDirectory() ? 'directory' : undefined;
    }
    catch {
        return undefined;
    }
}
async function list(dir) {
    try {
        return await (0,promises_.readdir)(dir, { withFileTypes: true });
    }
    catch {
        return [];
    }
}
/**
 * Files matching the pattern (absolute, or relative to cwd), as sorted absolute native paths.
 * Symlinks are followed for explicit segments; '**' does not descend into symlinked or hidden directories.
 */
async function globFiles(pattern, cwd) {
    const { base, segments } = splitPattern(pattern, cwd);
    const caseInsensitive = process.platform === 'win32';
    const regexes = segments.map((s) => (s === '**' || !hasGlobChars(s) ? undefined : segmentToRegExp(s, caseInsensitive)));
    const found = new Set();
    async function expand(dir, index) {
        const segment = segments[index];
        if (segment === undefined)
            return;
        const last = index === segments.length - 1;
        if (segment === '**') {
            await expand(dir, index + 1);
            for (const entry of await list(dir)) {
                if (entry.isDirectory() && !entry.name.startsWith('.'))
                    await expand(external_node_path_default().join(dir, entry.name), index);
            }
            return;
        }
        const regex = regexes[index];
        const candidates = regex === undefined
            ? [segment]
            : (await list(dir)).map((entry) => entry.name).filter((name) => regex.test(name) && (!name.startsWith('.') || segment.startsWith('.')));
        for (const name of candidates) {
            const full = external_node_path_default().join(dir, name);
            const k = await kind(full);
            if (last && k === 'file')
                found.add(full);
            else if (!last && k === 'directory')
                await expand(full, index + 1);
        }
    }
    if (segments.length === 0) {
        if ((await kind(base)) === 'file')
            found.add(base);
    }
    else if ((await kind(base)) === 'directory') {
        await expand(base, 0);
    }
    const matches = [...found].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
    return { base, matches };
}

;// CONCATENATED MODULE: ./src/archive/locate.ts
// Resolves the `distribution` input to an archive or a directory to pack. No network.




const POINT_HINT = 'Point `distribution` at the .tar.gz that your build produced (e.g. target/*-distribution.tar.gz), or at a directory to pack.';
const BUILD_HINT = 'If the distribution is built in this job, build it before this action: a `run: mvn -B -P dist package` step, or build-command: ' +
    'mvn -B -P dist package (build-command runs without a shell: one command, or bash -c "..." for && and pipes); ' +
    'if another job built it, download that artifact first (actions/download-artifact).';
/**
 * What a build leaves beside its archive (Maven's target/, Gradle's build/): a directory holding an archive and
 * one of these is a build output, and packing it would deploy a tarball inside a tarball with the build's debris.
 * A brXM distribution tree has none of them at its top (bin/, conf/, common/, shared/, webapps/).
 */
const BUILD_LEFTOVERS = new Set([
    'classes',
    'test-classes',
    'maven-archiver',
    'maven-status',
    'generated-sources',
    'generated-test-sources',
    'surefire-reports',
    'failsafe-reports',
    'archive-tmp',
    'antrun',
    'jacoco.exec',
    'libs',
    'tmp'
]);
function isBuildLeftover(name) {
    return BUILD_LEFTOVERS.has(name) || /\.(jar|war|pom)$/i.test(name);
}
function isArchiveName(name) {
    return /\.(tar\.gz|tgz)$/i.test(name);
}
async function statOrUndefined(p) {
    try {
        return await (0,promises_.stat)(p);
    }
    catch (err) {
        const code = err.code;
        if (code === 'EACCES' || code === 'EPERM') {
            throw new errors/* InputError */.dz(`distribution: cannot access '${p}' (${code}). Make sure the user running the action can read it.`);
        }
        return undefined; // ENOENT, ENOTDIR, EINVAL (glob characters on Windows), ENAMETOOLONG, ...
    }
}
/** A path for messages: relative to the workspace with '/' when inside it, else as is. */
function display(p, workspace) {
    const rel = external_node_path_default().relative(workspace, p);
    if (rel === '')
        return '.';
    if (rel.startsWith('..') || external_node_path_default().isAbsolute(rel))
        return p;
    return rel.split((external_node_path_default()).sep).join('/');
}
/** `platform`: the runner's (process.platform); a test passes another. */
async function locateDistribution(input, workspace, platform = process.platform) {
    const written = input.trim();
    if (written === '')
        throw new errors/* InputError */.dz(`distribution: the input is empty. ${POINT_HINT}`);
    // On Windows a backslash separates folders as / does: the glob matcher and the messages speak /.
    const raw = platform === 'win32' ? written.replace(/\\/g, '/') : written;
    const ws = external_node_path_default().resolve(workspace || '.');
    const resolved = external_node_path_default().resolve(ws, raw);
    const st = await statOrUndefined(resolved);
    if (st?.isDirectory()) {
        checkDirectory(raw, resolved, await (0,promises_.readdir)(resolved));
        return { kind: 'directory', path: resolved };
    }
    if (st?.isFile()) {
        if (!isArchiveName(resolved)) {
            throw new errors/* InputError */.dz(`distribution: '${raw}' is not a .tar.gz or .tgz file; Bloomreach Cloud takes the distribution as a gzip-compressed tar. ${POINT_HINT}`);
        }
        return { kind: 'archive', path: resolved };
    }
    if (st)
        throw new errors/* InputError */.dz(`distribution: '${raw}' (${resolved}) is neither a file nor a directory. ${POINT_HINT}`);
    if (hasGlobChars(raw)) {
        const { base, matches } = await globFiles(raw, ws);
        const archives = matches.filter((m) => isArchiveName(m));
        if (archives.length === 1)
            return { kind: 'archive', path: archives[0] };
        if (archives.length === 0) {
            // A Windows path (target\\site-*.tar.gz) on Linux or macOS: the backslash escapes the next character there.
            if (raw.includes('\\'))
                throw backslashError(raw, 'matched nothing', platform);
            const others = matches.length > 0
                ? ` It matched ${matches.length} file(s), none a .tar.gz or .tgz: ${matches
                    .slice(0, 5)
                    .map((m) => display(m, ws))
                    .join(', ')}${matches.length > 5 ? ', ...' : ''}.`
                : '';
            throw new errors/* InputError */.dz(`distribution: the pattern '${raw}' matched no .tar.gz or .tgz file (searched under ${base}).${others} ${BUILD_HINT} ${POINT_HINT}`);
        }
        const shown = archives.slice(0, 10).map((m) => `  ${display(m, ws)}`);
        if (archives.length > 10)
            shown.push(`  ... and ${archives.length - 10} more`);
        throw new errors/* InputError */.dz(`distribution: the pattern '${raw}' matched ${archives.length} archives; it must match exactly one:\n${shown.join('\n')}\n` +
            'Make the pattern more specific (e.g. include the project name or version), or clean stale archives before the build.');
    }
    if (raw.includes('\\'))
        throw backslashError(raw, 'does not exist', platform);
    throw new errors/* InputError */.dz(`distribution: '${raw}' does not exist (looked for ${resolved}). ${POINT_HINT} ${BUILD_HINT}`);
}
/** A path written with Windows' separators on a runner where a backslash is part of a name (or, in a glob, an escape). */
function backslashError(raw, what, platform) {
    return new errors/* InputError */.dz(`distribution: '${raw}' ${what}, and it is written with backslashes (\\), which separate folders only on Windows; this runner ` +
        `is ${platform === 'darwin' ? 'macOS' : 'Linux'}, where a backslash is part of a name. Write the path with forward slashes: ${raw.replace(/\\/g, '/')}`);
}
/**
 * What a source tree has at its top and a brXM distribution (bin/, conf/, common/, shared/, webapps/) never has:
 * packing one (distribution: . in the project's checkout) would deploy the sources, .git and node_modules included.
 */
const SOURCE_TREE_MARKS = ['pom.xml', 'package.json', 'node_modules', '.git', 'src'];
/** A directory to pack: refused when empty, when it holds only archives, or when it is a build output or a source tree. */
function checkDirectory(raw, resolved, names) {
    if (names.length === 0) {
        throw new errors/* InputError */.dz(`distribution: the directory '${raw}' (${resolved}) is empty; there is nothing to deploy. ` +
            `Point \`distribution\` at the directory your build filled, or at its .tar.gz. ${BUILD_HINT}`);
    }
    // A folder of archives only: packing it would deploy a tar of tarballs. The user meant one of them.
    const archives = names.filter(isArchiveName);
    if (archives.length > 0 && archives.length === names.filter((n) => !n.startsWith('.')).length) {
        const shown = archives.slice(0, 3).map((n) => `'${raw.replace(/\/+$/, '')}/${n}'`);
        throw new errors/* InputError */.dz(`distribution: the directory '${raw}' holds only ${archives.length === 1 ? 'an archive' : 'archives'} (${archives.join(', ')}): packing it would deploy ` +
            `a tar of tarballs. Point \`distribution\` at the archive itself${archives.length === 1 ? `: ${shown[0] ?? ''}` : `, e.g. ${shown.join(' or ')}, or a glob that matches one`}.`);
    }
    // A build output (target/ with the archive beside classes/, maven-archiver/...): the user meant the archive.
    const leftovers = names.filter(isBuildLeftover);
    if (archives.length > 0 && leftovers.length > 0) {
        const dir = raw.replace(/\/+$/, '');
        const shown = archives.slice(0, 3).map((n) => `'${dir === '.' ? n : `${dir}/${n}`}'`);
        throw new errors/* InputError */.dz(`distribution: the directory '${raw}' looks like a build output: it holds ${archives.length === 1 ? 'the archive' : 'the archives'} ${archives.join(', ')} beside ` +
            `${leftovers.slice(0, 4).join(', ')}${leftovers.length > 4 ? ', ...' : ''}. Packing it would deploy a tarball inside a tarball, with the build's leftovers. ` +
            `Point \`distribution\` at the archive itself${archives.length === 1 ? `: ${shown[0] ?? ''}` : `, e.g. ${shown.join(' or ')}, or a glob that matches one`} (e.g. target/*-distribution.tar.gz).`);
    }
    const marks = SOURCE_TREE_MARKS.filter((mark) => names.includes(mark));
    if (marks.length > 0 && !names.includes('webapps')) {
        throw new errors/* InputError */.dz(`distribution: the directory '${raw}' looks like a source tree, not a distribution: it holds ${marks.join(', ')} and no webapps/ folder. ` +
            `A brXM distribution (what mvn -P dist package makes) has webapps/ at its top, beside conf/, common/ and shared/. ` +
            `Point \`distribution\` at the archive your build made (e.g. target/*-distribution.tar.gz), or at the directory it unpacked into.`);
    }
}

// EXTERNAL MODULE: external "node:stream/promises"
var external_node_stream_promises_ = __webpack_require__(46466);
// EXTERNAL MODULE: external "node:stream"
var external_node_stream_ = __webpack_require__(57075);
// EXTERNAL MODULE: external "node:crypto"
var external_node_crypto_ = __webpack_require__(77598);
// EXTERNAL MODULE: external "node:zlib"
var external_node_zlib_ = __webpack_require__(38522);
var external_node_zlib_default = /*#__PURE__*/__webpack_require__.n(external_node_zlib_);
// EXTERNAL MODULE: ./src/format.ts
var format = __webpack_require__(16264);
// EXTERNAL MODULE: external "node:v8"
var external_node_v8_ = __webpack_require__(78877);
var external_node_v8_default = /*#__PURE__*/__webpack_require__.n(external_node_v8_);
// EXTERNAL MODULE: external "node:vm"
var external_node_vm_ = __webpack_require__(30714);
var external_node_vm_default = /*#__PURE__*/__webpack_require__.n(external_node_vm_);
;// CONCATENATED MODULE: ./src/memory.ts
// Keeps a streaming process's memory flat when it churns through big buffers it cannot recycle.
//
// Node's zlib hands every compressed block back in a fresh buffer, and an upload reads its file in
// fresh chunks. Each is garbage milliseconds later, but V8 collects that garbage only when its
// outside-the-heap memory has grown by tens of MB, and the malloc heap that held it keeps the
// high-water mark as resident memory: measured on a 300 MB tree, packing then shows 45-50 MB more
// RSS than it ever holds, and an upload of 180 MB 35-40 MB more.
//
// GarbageRelief asks V8 for a young-generation collection (about half a millisecond with this
// action's small heap) once at least `every` bytes of such buffers were produced AND at least
// `interval` ms went by since the last one. The interval matters: a buffer that is still in use
// when a collection runs survives it, and one that survives two is moved to the old generation,
// whose garbage only a full collection frees; collecting more often than a block takes to compress
// does more harm than good (measured: every 10 ms, +75 MB; every 20 ms, +27 MB; none, +48 MB).
//
// The collector is V8's own, reached through its `--expose-gc` flag set at run time for a fresh
// context (what the `expose-gc` package does); when that is not available, relief does nothing.


let collector;
/** V8's collector, or null when it cannot be had. */
function garbageCollector() {
    if (collector === undefined) {
        try {
            const exposed = globalThis.gc;
            if (typeof exposed === 'function') {
                collector = exposed;
            }
            else {
                external_node_v8_default().setFlagsFromString('--expose-gc');
                const gc = external_node_vm_default().runInNewContext('gc');
                collector = typeof gc === 'function' ? gc : null;
            }
        }
        catch {
            collector = null;
        }
    }
    return collector;
}
class GarbageRelief {
    every;
    interval;
    produced = 0;
    last = performance.now();
    /** Young-generation collections asked for. */
    collections = 0;
    constructor(options = {}) {
        this.every = options.every ?? 2 * 1024 * 1024;
        this.interval = options.interval ?? 20;
    }
    /** Call with the size of each buffer produced that will be garbage shortly. */
    produce(bytes) {
        this.produced += bytes;
        if (this.produced < this.every)
            return;
        const now = performance.now();
        if (now - this.last < this.interval)
            return;
        const gc = garbageCollector();
        if (gc === null)
            return;
        gc({ type: 'minor' });
        this.collections++;
        this.produced = 0;
        this.last = performance.now();
    }
}

// EXTERNAL MODULE: ./node_modules/tar/dist/esm/index.min.js
var index_min = __webpack_require__(98697);
;// CONCATENATED MODULE: ./src/archive/links.ts
// Where links lead once a distribution is unpacked: shared by the archive check (entries in archive
// order) and the packer (the symlinks of the directory). A symlink is resolved against its own
// directory, through the symlinks met before it, as an extractor that follows links would; so
// `lib/current -> ../lib-1.2` stays inside, while `up -> ..`, an absolute target, or an entry
// `up/file` written through a symlinked directory lead outside the root. GNU tar and bsdtar refuse
// to extract through such links; we refuse the archive before anything is uploaded.
/** Symlinks followed for one path at most, as the kernel's limit (40). */
const MAX_HOPS = 40;
const split = (name) => name.split('/').filter((part) => part !== '' && part !== '.');
class LinkTracker {
    root;
    /** Symlinks by where they sit once unpacked (their directory resolved), with their targets. */
    links = new Map();
    /** @param root what the names are relative to, for messages: "the archive root", "the directory being packed". */
    constructor(root = 'the archive root') {
        this.root = root;
    }
    /**
     * Checks one entry, in order, and remembers it: its directory must not lead outside through a
     * symlink; a symlink's target must stay inside; a hard link's target must not lie beyond a symlink
     * that leads outside. Names are relative, '/'-separated (a trailing '/' of a directory is ignored).
     */
    entry(name, kind, target) {
        const parts = split(name);
        const base = parts.pop();
        const dir = this.resolve(parts, [], { hops: MAX_HOPS });
        if (!('parts' in dir))
            return { why: this.describe(dir, 'is written through') };
        const where = [...dir.parts, ...(base === undefined ? [] : [base])].join('/');
        this.links.delete(where); // a later entry of the same name replaces the link
        if (kind === 'symlink' && target !== undefined) {
            const problem = this.checkTarget(target, dir.parts);
            this.links.set(where, target);
            return problem;
        }
        if (kind === 'hardlink' && target !== undefined) {
            const targetParts = split(target);
            targetParts.pop();
            const resolved = this.resolve(targetParts, [], { hops: MAX_HOPS });
            if (!('parts' in resolved))
                return { why: this.describe(resolved, 'lies beyond') };
        }
        return undefined;
    }
    /**
     * Checks every symlink again with all of them known: a link that stayed inside when it came may
     * lead outside through a symlink that came after it. Returns the first such link.
     */
    finish() {
        for (const [where, target] of this.links) {
            const dir = split(where);
            dir.pop();
            const problem = this.checkTarget(target, dir);
            if (problem)
                return { name: where, target, problem };
        }
        return undefined;
    }
    checkTarget(target, dir) {
        if (target.startsWith('/') || /^[A-Za-z]:[\\/]/.test(target))
            return { why: 'points to an absolute path' };
        const resolved = this.resolve(target.split('/'), dir, { hops: MAX_HOPS });
        if ('parts' in resolved)
            return undefined;
        if ('loop' in resolved)
            return { why: 'is part of a loop of symlinks' };
        const through = resolved.outside === '' ? '' : ` (through the symlink '${resolved.outside}')`;
        return { why: `points outside ${this.root}${through}` };
    }
    describe(resolved, how) {
        if ('loop' in resolved)
            return `${how} a loop of symlinks ('${resolved.loop}')`;
        return `${how} the symlink '${resolved.outside}' (-> '${this.links.get(resolved.outside) ?? ''}'), which leads outside ${this.root}`;
    }
    /** Walks `parts` from `start`, following known symlinks; `outside` names the link that led out ('' for a plain '..'). */
    resolve(parts, start, budget, via = '') {
        const out = [...start];
        for (const part of parts) {
            if (part === '' || part === '.')
                continue;
            if (part === '..') {
                if (out.length === 0)
                    return { outside: via };
                out.pop();
                continue;
            }
            out.push(part);
            const here = out.join('/');
            const target = this.links.get(here);
            if (target === undefined)
                continue;
            if (--budget.hops < 0)
                return { loop: here };
            if (target.startsWith('/'))
                return { outside: here };
            out.pop();
            const next = this.resolve(target.split('/'), out, budget, via || here);
            if (!('parts' in next))
                return next;
            out.splice(0, out.length, ...next.parts);
        }
        return { parts: out };
    }
}
/** Folders a brXM distribution has at its root: an archive that holds only one of them is fine. */
const DISTRIBUTION_ROOTS = new Set(['webapps', 'shared', 'conf', 'bin', 'common', 'lib', 'server', 'logs', 'temp', 'work']);
/** Follows the top-level folders of a stream of entry names: `folder` is the one folder every entry sits under, if any. */
class TopLevel {
    only;
    several = false;
    inFolder = true;
    add(name) {
        const parts = split(name);
        if (parts.length === 0)
            return; // '.' or './'
        const first = parts[0];
        if (parts.length === 1 && !name.endsWith('/'))
            this.inFolder = false; // a file or link at the root
        if (this.only === undefined)
            this.only = first;
        else if (this.only !== first)
            this.several = true;
    }
    /** The single top-level folder, when it is not one a distribution has at its root. */
    get folder() {
        if (this.several || !this.inFolder || this.only === undefined || DISTRIBUTION_ROOTS.has(this.only))
            return undefined;
        return this.only;
    }
}

;// CONCATENATED MODULE: ./src/archive/tar-step.ts
// Follows the block structure of a tar stream in step with node-tar's Parser, for one thing the
// Parser does not know: the extension blocks of an old-GNU sparse header ('S' with the isextended
// flag at offset 482; each extension block has its own flag at offset 504). GNU tar writes them
// between the header and the data when a sparse file has more than 4 data regions. The Parser takes
// them for the entry's data, so it reads the entry's last blocks as headers: it then refuses a valid
// archive as corrupt, or never sees the entries that follow. This stepper hands the Parser every byte
// except those extension blocks.
//
// To stay in step it decides every entry's data size exactly as node-tar 7's Header and ReadEntry do
// (the size field, octal or base-256; a PAX or global PAX `size` for the ordinary types only; no data
// for a directory, or for a file whose name ends in '/'), and parses PAX records the way node-tar does.
// On a header the Parser refuses (a bad checksum) the check fails anyway, so nothing depends on what
// the stepper makes of it.
const BLOCK = 512;
/** Types whose header takes values from extended headers in node-tar (its `normalFsTypes`). */
const ORDINARY = new Set(['0', '', '1', '2', '3', '4', '5', '6', '7', 'D']);
/** Extended headers whose data changes how the next header is read. */
const META_KEPT = new Set(['x', 'X', 'g', 'L', 'N']);
/** Extended headers node-tar reads (the ones it keeps, plus the long link name). */
const META = new Set([...META_KEPT, 'K']);
/** A numeric header field as node-tar reads it: base-256 when the high bit is set, else octal; undefined when unreadable. */
function numberField(block, offset, length) {
    const first = block[offset];
    if (first & 0x80) {
        if (first !== 0x80)
            return undefined; // negative or malformed: node-tar gives no size (or fails)
        let value = 0;
        for (let i = offset + 1; i < offset + length; i++)
            value = value * 256 + block[i];
        return Number.isSafeInteger(value) ? value : undefined;
    }
    const value = parseInt(block
        .toString('utf8', offset, offset + length)
        .replace(/\0.*$/s, '')
        .trim(), 8);
    return Number.isNaN(value) ? undefined : value;
}
const textField = (block, offset, length) => block.toString('utf8', offset, offset + length).replace(/\0.*/s, '');
/** PAX records as node-tar 7 reads them (line by line; only path and size matter here). */
function parsePax(text, into) {
    const result = { ...into };
    for (const line of text.replace(/\n$/, '').split('\n')) {
        const n = parseInt(line, 10);
        if (n !== Buffer.byteLength(line) + 1)
            continue;
        const [key, ...rest] = line.slice(`${n} `.length).split('=');
        const value = rest.join('=').replace(/\0.*/s, '');
        if (key === 'path')
            result.path = value;
        if (key === 'size' && +value >= 0)
            result.size = +value;
    }
    return result;
}
class TarStepper {
    maxMetaBytes;
    /** Old-GNU sparse extension blocks taken out of the stream. */
    extensionBlocks = 0;
    state = 'header';
    /** Bytes of the current block gathered so far (a header or an extension block split across chunks). */
    block = Buffer.alloc(BLOCK);
    fill = 0;
    /** Data bytes (with padding) left in the current entry. */
    data = 0;
    /** Data of the entry after the extension blocks. */
    afterExtensions = 0;
    meta;
    extended;
    globalExtended;
    constructor(maxMetaBytes) {
        this.maxMetaBytes = maxMetaBytes;
    }
    /** Splits a chunk of the tar stream into the pieces the Parser gets (in order; extension blocks left out). */
    step(chunk, pass) {
        let keepFrom = 0;
        let i = 0;
        while (i < chunk.length) {
            if (this.state === 'ended')
                break;
            if (this.state === 'data') {
                const n = Math.min(this.data, chunk.length - i);
                if (this.meta)
                    this.meta.parts.push(chunk.subarray(i, i + n));
                this.data -= n;
                i += n;
                if (this.data === 0)
                    this.endData();
                continue;
            }
            const n = Math.min(BLOCK - this.fill, chunk.length - i);
            if (this.state === 'extension' && this.fill === 0) {
                if (i > keepFrom)
                    pass(chunk.subarray(keepFrom, i));
            }
            chunk.copy(this.block, this.fill, i, i + n);
            this.fill += n;
            i += n;
            if (this.state === 'extension')
                keepFrom = i;
            if (this.fill < BLOCK)
                continue;
            this.fill = 0;
            if (this.state === 'extension')
                this.onExtension();
            else
                this.onHeader();
        }
        if (keepFrom < chunk.length)
            pass(chunk.subarray(keepFrom));
    }
    endData() {
        this.state = 'header';
        const meta = this.meta;
        if (!meta)
            return;
        this.meta = undefined;
        const text = Buffer.concat(meta.parts).toString('utf8', 0, meta.size);
        if (meta.type === 'g')
            this.globalExtended = parsePax(text, this.globalExtended);
        else if (meta.type === 'x' || meta.type === 'X')
            this.extended = parsePax(text, this.extended);
        else
            this.extended = { ...this.extended, path: text.replace(/\0.*/s, '') };
    }
    startData(size) {
        this.data = BLOCK * Math.ceil(size / BLOCK);
        if (this.data > 0)
            this.state = 'data';
        else
            this.endData();
    }
    onHeader() {
        const block = this.block;
        let sum = 256;
        for (let j = 0; j < BLOCK; j++)
            if (j < 148 || j >= 156)
                sum += block[j];
        if (sum === 256 && numberField(block, 148, 12) === undefined) {
            this.state = 'ended'; // the first zero block ends the archive (TarCheck stops there too)
            return;
        }
        const type = textField(block, 156, 1);
        const raw = numberField(block, 124, 12);
        if (META.has(type)) {
            const size = raw ?? 0;
            if (META_KEPT.has(type) && size > 0 && size <= this.maxMetaBytes)
                this.meta = { type, size, parts: [] };
            this.startData(size);
            return;
        }
        const ordinary = ORDINARY.has(type);
        const extended = ordinary ? this.extended : undefined;
        const global = ordinary ? this.globalExtended : undefined;
        let size = extended?.size ?? global?.size ?? raw;
        const name = extended?.path ?? textField(block, 0, 100);
        if (type === '5' || ((type === '0' || type === '') && name.endsWith('/')))
            size = 0;
        this.extended = undefined;
        if (type === 'S' && block[482] !== 0) {
            this.afterExtensions = size ?? 0;
            this.state = 'extension';
            return;
        }
        this.startData(size ?? 0);
    }
    onExtension() {
        this.extensionBlocks++;
        if (this.block[504] !== 0)
            return;
        this.startData(this.afterExtensions);
    }
}

;// CONCATENATED MODULE: ./src/archive/tar-check.ts
// The tar side of checkArchive: node-tar's Parser reads the headers (ustar, GNU long names, PAX,
// base-256 numbers); this Writable feeds it the gunzipped bytes and turns what it reports into
// our three verdicts (not a tar, truncated, corrupt) and the unsafe-name refusal.
//
// The parser runs in strict mode, so a damaged header is an 'error' event, never a mere warning.
// On top of it, three checks node-tar does not make (it tolerates them when reading):
// - a stream that stops inside a 512-byte header block (node-tar drops the partial block silently);
// - a stream that stops right after an extended header, with no entry for it;
// - an extended header over 1 MiB (node-tar skips it as an "ignored" entry).
// The first zero block ends the archive, as for GNU tar: what follows is padding, never parsed.
// node-tar does not know GNU sparse files: the old-GNU extension blocks are taken out of the stream
// before it (tar-step.ts), so every entry GNU tar lists is seen, and a sparse file is refused by the
// name GNU tar gives it (GNU.sparse.name for the PAX formats) once the whole archive has been read:
// an unsafe entry anywhere is the worse news and is named first.




const tar_check_BLOCK = 512;
/** Upper bound for the data of a PAX or GNU long-name header (node-tar holds them in memory). */
const MAX_META_BYTES = 1024 * 1024;
class TarFormatError extends Error {
    kind;
    name = 'TarFormatError';
    constructor(kind, message) {
        super(message);
        this.kind = kind;
    }
}
/** Stops the check at the first entry that would extract outside the target directory. */
class UnsafeEntry extends Error {
    entry;
    name = 'UnsafeEntry';
    constructor(entry) {
        super(`unsafe entry '${entry.name}'`);
        this.entry = entry;
    }
}
/** Why an entry name would write outside the extraction directory, or undefined when it is safe. */
function unsafeName(name) {
    if (/^[\\/]/.test(name))
        return 'is an absolute path';
    if (/^[A-Za-z]:/.test(name))
        return 'starts with a Windows drive';
    if (name.split(/[\\/]/).includes('..'))
        return "has a '..' segment";
    return undefined;
}
/** A GNU sparse file: refused, since an extractor that does not know the format unpacks other bytes than GNU tar does. */
class SparseEntry extends Error {
    entryName;
    name = 'SparseEntry';
    constructor(entryName) {
        super(`sparse entry '${entryName}'`);
        this.entryName = entryName;
    }
}
/** The GNU.sparse.* records of PAX extended-header data (read record by record, by length), or undefined when there are none. */
function sparseRecords(meta) {
    if (!meta.includes('GNU.sparse.'))
        return undefined;
    const found = {};
    const bytes = Buffer.from(meta, 'utf8');
    let at = 0;
    while (at < bytes.length) {
        const space = bytes.indexOf(0x20, at);
        const length = space < 0 ? NaN : Number(bytes.toString('latin1', at, space));
        if (!Number.isInteger(length) || length <= space - at)
            break;
        const record = bytes.toString('utf8', space + 1, at + length).replace(/\n$/, '');
        const eq = record.indexOf('=');
        if (eq > 0 && record.slice(0, eq) === 'GNU.sparse.name')
            found.name = record.slice(eq + 1);
        at += length;
    }
    return found;
}
/** Entry types an extractor cannot make a file of (a device needs privileges; a FIFO is not content). */
const SPECIAL = { CharacterDevice: 'a character device', BlockDevice: 'a block device', FIFO: 'a FIFO' };
class TarCheck extends external_node_stream_.Writable {
    onConsumed;
    /** Entries seen (extended headers and volume labels not counted). */
    entries = 0;
    parser;
    /** Tar bytes handed to the parser. */
    bytes = 0;
    /** Valid headers seen, extended ones included: none means the content is not a tar at all. */
    headers = 0;
    lastName;
    /** An extended header was read and no entry has used it yet. */
    pendingMeta = false;
    /** The first zero block was seen: the rest is padding. */
    ended = false;
    failure;
    stepper = new TarStepper(MAX_META_BYTES);
    links = new LinkTracker();
    /** The top-level folders of the entries (for the "everything under one folder" warning). */
    topLevel = new TopLevel();
    /** Device and FIFO entries: how many, and the first one. */
    special;
    /** GNU.sparse.* records were read for the next entry (PAX sparse formats), with the real name if given. */
    pendingSparse;
    /** The first sparse file seen: refused at the end unless something worse turns up. */
    sparse;
    constructor(
    /** Called with each chunk's length once it is consumed (the chunk is no longer referenced). */
    onConsumed) {
        super();
        this.onConsumed = onConsumed;
        // gzip/brotli/zstd off: the bytes are already gunzipped, node-tar must not sniff them again.
        const parser = new index_min/* Parser */.iX({ strict: true, maxMetaEntrySize: MAX_META_BYTES, brotli: false, zstd: false });
        parser.on('entry', (entry) => this.onEntry(entry, true));
        parser.on('ignoredEntry', (entry) => {
            if (entry.meta) {
                this.fail(new TarFormatError('corrupt', `an extended header ${this.where()} claims ${entry.size} bytes`));
            }
            else {
                this.onEntry(entry, entry.type !== 'TapeVolumeHeader'); // unsupported types still count, as GNU tar lists them
            }
        });
        parser.on('meta', (meta) => {
            this.headers++;
            this.pendingMeta = true;
            const sparse = sparseRecords(meta);
            if (sparse)
                this.pendingSparse = { ...this.pendingSparse, ...sparse };
        });
        parser.on('nullBlock', () => {
            this.ended = true;
        });
        parser.on('error', (err) => this.onParserError(err));
        this.parser = parser;
    }
    where() {
        return this.lastName === undefined ? 'at the start of the archive' : `after the entry '${this.lastName}'`;
    }
    /** Something wrong was found already (it is reported when the stream ends or fails). */
    get failing() {
        return this.failure !== undefined;
    }
    fail(err) {
        if (!this.ended)
            this.failure ??= err;
    }
    onEntry(entry, counted) {
        entry.resume(); // content is never looked at
        if (this.ended)
            return;
        this.headers++;
        this.pendingMeta = false;
        const sparse = this.pendingSparse;
        this.pendingSparse = undefined;
        const name = sparse?.name ?? entry.path;
        this.lastName = name;
        if (counted)
            this.entries++;
        if (sparse || entry.type === 'SparseFile')
            this.sparse ??= new SparseEntry(name);
        this.topLevel.add(entry.type === 'Directory' && !name.endsWith('/') ? `${name}/` : name);
        const kind = SPECIAL[entry.type];
        if (kind !== undefined)
            this.special = { count: (this.special?.count ?? 0) + 1, first: this.special?.first ?? name, kind: this.special?.kind ?? kind };
        const why = unsafeName(name);
        if (why)
            return this.fail(new UnsafeEntry({ name, why }));
        if (entry.type === 'Link' && entry.linkpath !== undefined) {
            const linkWhy = unsafeName(entry.linkpath);
            if (linkWhy)
                return this.fail(new UnsafeEntry({ name, why: linkWhy, link: entry.linkpath }));
        }
        // Where links lead: a symlink's target resolved against its directory, entries under symlinked directories.
        const symlink = entry.type === 'SymbolicLink' ? entry.linkpath : undefined;
        const linkKind = symlink !== undefined ? 'symlink' : entry.type === 'Link' ? 'hardlink' : 'other';
        const problem = this.links.entry(name, linkKind, entry.linkpath);
        if (problem) {
            if (symlink !== undefined)
                this.fail(new UnsafeEntry({ name, why: problem.why, symlink }));
            else if (linkKind === 'hardlink' && entry.linkpath !== undefined)
                this.fail(new UnsafeEntry({ name, why: problem.why, link: entry.linkpath }));
            else
                this.fail(new UnsafeEntry({ name, why: problem.why }));
        }
    }
    /** A symlink that leads outside through a symlink that came after it. */
    lateLink() {
        if (this.failure)
            return undefined;
        const late = this.links.finish();
        return late && new UnsafeEntry({ name: late.name, why: late.problem.why, symlink: late.target });
    }
    onParserError(err) {
        const message = err.message.replace(/^TAR_[A-Z_]+: /, '');
        if (err.tarCode === 'TAR_BAD_ARCHIVE') {
            // At the end: "Truncated input" inside an entry's content; "Unrecognized archive format"
            // (nothing valid seen) is decided in _final from what was counted.
            if (/^Truncated input/.test(message))
                this.fail(new TarFormatError('truncated', `the tar stream ends in the middle of an entry ${this.where()}`));
            return;
        }
        if (message === 'checksum failure') {
            this.fail(this.headers === 0
                ? new TarFormatError('not-tar', 'its content does not start with a valid tar header (bad header checksum)')
                : new TarFormatError('corrupt', `a tar header ${this.where()} is damaged (bad header checksum)`));
            return;
        }
        // Headers node-tar cannot decode (a malformed base-256 number, a link without a target, ...).
        this.fail(new TarFormatError('corrupt', `a tar header ${this.where()} is damaged (${message})`));
    }
    _write(chunk, _encoding, callback) {
        if (!this.ended) {
            this.bytes += chunk.length;
            try {
                this.stepper.step(chunk, (piece) => {
                    if (!this.ended)
                        this.parser.write(piece);
                });
            }
            catch (err) {
                this.fail(err);
            }
        }
        this.onConsumed?.(chunk.length);
        callback(this.failure ?? null);
    }
    _final(callback) {
        if (!this.ended) {
            try {
                this.parser.end();
            }
            catch (err) {
                this.fail(err);
            }
        }
        callback(this.failure ?? this.endOfStream() ?? this.lateLink() ?? this.sparse ?? null);
    }
    /** What is wrong with where the tar stream stopped, when it stopped without its end blocks. */
    endOfStream() {
        if (this.ended || this.bytes === 0)
            return undefined;
        if (this.headers === 0) {
            return this.bytes < tar_check_BLOCK ? new TarFormatError('not-tar', `its content is only ${this.bytes} bytes long, smaller than one tar header`) : undefined;
        }
        if (this.bytes % tar_check_BLOCK !== 0)
            return new TarFormatError('truncated', `the tar stream ends in the middle of an entry ${this.where()}`);
        if (this.pendingMeta)
            return new TarFormatError('truncated', `the tar stream ends ${this.where()}, inside an extended header`);
        return undefined; // no end-of-archive blocks: tolerated (GNU tar does too)
    }
}

;// CONCATENATED MODULE: ./src/archive/check.ts
// Checks an existing distribution archive before anything is uploaded: reads it once, verifying the
// gzip stream and every tar header, and computing size, sha256 and md5 in the same pass. The file
// is read into recycled buffers and hashed while zlib inflates on the threadpool, so the two overlap
// and memory stays flat (1.5 s -> 1.0 s, +40 MB -> a few MB RSS for a 184 MB archive).










const REBUILD_HINT = 'Rebuild the distribution (e.g. mvn -B -P dist package) and make sure it is completely written, uploaded and downloaded ' +
    '(an interrupted artifact upload/download or cache restore leaves a cut-off file).';
const check_POINT_HINT = 'Point `distribution` at the .tar.gz that your build produced (e.g. target/*-distribution.tar.gz), or at a directory to pack.';
/** MB, with the exact byte count when the rounded MB would not tell the two numbers apart. */
function sizeText(bytes, other) {
    return (0,format/* formatMb */.TF)(bytes) === (0,format/* formatMb */.TF)(other) ? `${(0,format/* formatMb */.TF)(bytes)} (${bytes} bytes)` : (0,format/* formatMb */.TF)(bytes);
}
/** Refuses an archive over the limit: checked before reading an existing archive, and after packing a directory. */
function checkSizeLimit(label, size, maxBytes) {
    if (size <= maxBytes)
        return;
    throw new errors/* InputError */.dz(`${label} is ${sizeText(size, maxBytes)}, over the limit of ${sizeText(maxBytes, size)} per distribution ` +
        '(Bloomreach Cloud accepts at most 650 MB per distribution by default). Make the distribution smaller ' +
        '(e.g. leave unused dependencies or test jars out of the build), or, if your platform allows larger distributions, ' +
        'raise the limit with the `max-distribution-mb` input.');
}
/** A short description of what a non-gzip file looks like, from its first bytes. */
function describeContent(head) {
    if (head.length >= 262 && head.toString('latin1', 257, 262) === 'ustar')
        return 'a plain, uncompressed tar';
    if (head[0] === 0x50 && head[1] === 0x4b)
        return "it starts with 'PK', a zip (or war/jar)?";
    if (head.toString('latin1', 0, 3) === 'BZh')
        return 'it looks like bzip2';
    if (head.subarray(0, 6).equals(Buffer.from([0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00])))
        return 'it looks like xz';
    if (head.subarray(0, 4).equals(Buffer.from([0x28, 0xb5, 0x2f, 0xfd])))
        return 'it looks like zstd';
    const start = head.subarray(0, 16).toString('latin1');
    if (/^\s*</.test(start))
        return 'it looks like HTML or XML, perhaps an error page saved instead of the file';
    if (/^[\x20-\x7e\t\r\n]+$/.test(start))
        return `it is text starting with '${start
            .replace(/[\r\n\t]/g, ' ')
            .trim()
            .slice(0, 12)}'`;
    return `it starts with bytes ${[...head.subarray(0, 4)].map((b) => b.toString(16).padStart(2, '0')).join(' ')}`;
}
async function readHead(file, length) {
    const handle = await (0,promises_.open)(file, 'r');
    try {
        const buffer = Buffer.alloc(length);
        const { bytesRead } = await handle.read(buffer, 0, length, 0);
        return buffer.subarray(0, bytesRead);
    }
    finally {
        await handle.close();
    }
}
/** Tar bytes at the start of an archive that are checked before any request is sent. */
const HEAD_CHECK_BYTES = 4 * 1024 * 1024;
/** Checks the whole archive before returning (see startArchiveCheck for a check that runs beside the upload). */
async function checkArchive(file, options = {}) {
    return startArchiveCheck(file, options).done;
}
/** The length of the uncompressed data mod 2^32, from a gzip file's last 4 bytes. */
async function trailerLength(file, size) {
    if (size < 18)
        return undefined;
    const handle = await (0,promises_.open)(file, 'r');
    try {
        const tail = Buffer.alloc(4);
        await handle.read(tail, 0, 4, size - 4);
        return tail.readUInt32LE(0);
    }
    finally {
        await handle.close();
    }
}
/**
 * Starts checking an archive: the cheap checks and the start of it are awaited before any request
 * (`head`); the rest runs while the upload sends the bytes, and the upload waits for it (`done`)
 * before its last bytes, so a bad entry anywhere stops the upload before the platform has a whole
 * request to store.
 */
function startArchiveCheck(file, options = {}) {
    let headReached = () => undefined;
    const head = new Promise((resolve) => (headReached = (size) => resolve({ size })));
    const done = runCheck(file, options, (size) => headReached(size));
    // The head settles with the check: passed at HEAD_CHECK_BYTES, or failed (or done) before.
    const gated = Promise.race([head, done.then((info) => ({ size: info.size }))]);
    gated.catch(() => undefined);
    done.catch(() => undefined);
    return { head: gated, done, path: external_node_path_default().resolve(file) };
}
async function runCheck(file, options, headChecked) {
    const absolute = external_node_path_default().resolve(file);
    const label = `distribution: '${file}'`;
    const fileSize = await checkBeforeReading(absolute, label, options);
    const read = await readArchive(absolute, label, fileSize, headChecked);
    if (read.reader.entries === 0) {
        throw new errors/* InputError */.dz(`${label} is an empty archive (no entries at all); there is nothing to deploy. ${REBUILD_HINT}`);
    }
    const warnings = archiveWarnings(read.reader, label, absolute);
    return {
        path: absolute,
        fileName: external_node_path_default().basename(absolute),
        size: read.size,
        sha256: read.sha256,
        md5: read.md5,
        entries: read.reader.entries,
        packed: false,
        ...(warnings.length > 0 ? { warnings } : {})
    };
}
/** The checks that need no reading of the content: there, a file, within the limit, not empty, gzip. Returns its size. */
async function checkBeforeReading(absolute, label, options) {
    let st;
    try {
        st = await (0,promises_.stat)(absolute);
    }
    catch {
        throw new errors/* InputError */.dz(`${label} does not exist. ${check_POINT_HINT}`);
    }
    if (!st.isFile())
        throw new errors/* InputError */.dz(`${label} is not a file. ${check_POINT_HINT}`);
    if (options.maxBytes !== undefined)
        checkSizeLimit(label, st.size, options.maxBytes);
    if (st.size === 0)
        throw new errors/* InputError */.dz(`${label} is an empty file (0 bytes). ${REBUILD_HINT}`);
    const head = await readHead(absolute, 512);
    if (head[0] !== 0x1f || head[1] !== 0x8b) {
        const tar = head.length >= 262 && head.toString('latin1', 257, 262) === 'ustar';
        throw new errors/* InputError */.dz(`${label} is not a gzip file (${describeContent(head)}). ` +
            (tar
                ? 'Bloomreach Cloud takes a gzip-compressed tar: compress it (`gzip` it, or build it with `tar -czf`), or point `distribution` at the directory to pack.'
                : check_POINT_HINT));
    }
    return st.size;
}
/**
 * Reads the archive once: gunzip and the tar check on one side, the file's hashes on the other. `headChecked` is
 * told once HEAD_CHECK_BYTES of sound tar were read, unless the gzip trailer makes the file suspicious.
 */
async function readArchive(absolute, label, fileSize, headChecked) {
    // A tar is a whole number of 512-byte blocks, so a gzip member holding one ends with a length that
    // is too: anything else is a cut-off file or bytes after the stream (or, rarely, a tar split over
    // several members). Then the whole check runs before any request, to name the problem exactly.
    const length = await trailerLength(absolute, fileSize);
    const suspicious = length === undefined || length % 512 !== 0;
    let tarBytes = 0;
    // zlib hands back every piece of the tar in a fresh buffer: collect that garbage as it goes (src/memory.ts),
    // every 5 ms at most, as the packed archive's read does: the check runs ahead of an upload at link speed.
    const relief = new GarbageRelief({ interval: 5 });
    const reader = new TarCheck((bytes) => {
        relief.produce(bytes);
        tarBytes += bytes;
        if (!suspicious && tarBytes >= HEAD_CHECK_BYTES && !reader.failing)
            headChecked(fileSize);
    });
    const sha256 = (0,external_node_crypto_.createHash)('sha256');
    const md5 = (0,external_node_crypto_.createHash)('md5');
    let size = 0;
    try {
        const gunzip = (0,external_node_zlib_.createGunzip)({ chunkSize: 256 * 1024 });
        const consuming = (0,external_node_stream_promises_.pipeline)(gunzip, reader);
        const [fed, consumed] = await Promise.allSettled([
            feed(absolute, gunzip, consuming, (chunk) => {
                sha256.update(chunk);
                md5.update(chunk);
                size += chunk.length;
            }),
            consuming
        ]);
        // What the tar check or gunzip found comes first; a read error of the file otherwise.
        if (consumed.status === 'rejected')
            throw consumed.reason;
        if (fed.status === 'rejected')
            throw fed.reason;
    }
    catch (err) {
        throw readFailure(err, label, absolute, size);
    }
    return { reader, size, sha256: sha256.digest('hex'), md5: md5.digest('hex') };
}
/**
 * What a failed read of the archive is, for the user: an InputError naming what is wrong and how to fix it, or the
 * failure as it was when it is none of the archive's (a read error of the file). `fed`: the bytes read before it.
 */
function readFailure(err, label, absolute, fed) {
    if (err instanceof UnsafeEntry)
        return unsafeEntryError(err, label);
    if (err instanceof SparseEntry) {
        return new errors/* InputError */.dz(`${label} contains a sparse file '${err.entryName}' (written by \`tar --sparse\`): an extractor that does not know GNU's sparse ` +
            'format unpacks other bytes than GNU tar does (its map as content, or content as further entries), so what the platform would ' +
            'unpack cannot be checked. Repack it without `--sparse` (`-S`), e.g. `tar -czf dist.tar.gz -C <dir> .`, ' +
            'or point `distribution` at the directory and let the action pack it.');
    }
    if (err instanceof TarFormatError) {
        if (err.kind === 'not-tar') {
            return new errors/* InputError */.dz(`${label} is a gzip file but not a tar archive (${err.message}). Bloomreach Cloud takes a gzip-compressed tar (.tar.gz). ${check_POINT_HINT}`);
        }
        const what = err.kind === 'truncated' ? 'is truncated' : 'is corrupt';
        return new errors/* InputError */.dz(`${label} ${what}: ${err.message}. ${REBUILD_HINT}`);
    }
    return gzipFailure(err, label, absolute, fed) ?? err;
}
/** An entry that would land outside the installation directory: a symlink leading out, or a name or hard link that does. */
function unsafeEntryError(err, label) {
    const { entry } = err;
    if (entry.symlink !== undefined) {
        return new errors/* InputError */.dz(`${label} contains a symlink '${entry.name}' -> '${entry.symlink}' that ${entry.why}; on the platform it would lead outside the ` +
            'installation directory (GNU tar and bsdtar refuse to extract through such a link). Replace the link by the file or directory ' +
            'it points to (e.g. pack with `tar -h`/`--dereference`), or make it point inside the distribution with a relative target ' +
            '(e.g. `lib/current -> ../lib-1.2`).');
    }
    const what = entry.link === undefined ? `an entry '${entry.name}' that ${entry.why}` : `a hard link '${entry.name}' whose target '${entry.link}' ${entry.why}`;
    return new errors/* InputError */.dz(`${label} contains ${what}; extracting it would write outside the installation directory. ` +
        'Repack the distribution with relative paths only (e.g. `tar -czf dist.tar.gz -C <dir> .`), ' +
        'or point `distribution` at the directory and let the action pack it.');
}
/** zlib's failures (codes Z_*) in the user's words; undefined for any other failure. */
function gzipFailure(err, label, absolute, fed) {
    const code = err.code;
    if (code === 'Z_BUF_ERROR') {
        return new errors/* InputError */.dz(`${label} is truncated: the gzip stream ends early (after ${fed} bytes). ${REBUILD_HINT}`);
    }
    // After a complete member (its CRC and length checked), zlib reads the next bytes as another
    // member's header: a second member is valid gzip and read on, zero padding is ignored. zlib says
    // "incorrect header check" only where a member must start, and the file's first member starts
    // right (checked above), so this is bytes that are not gzip after a complete gzip stream. Refused:
    // gzip and GNU tar ignore them with a warning, Python's gzip and others refuse the file, and the
    // platform's extractor is not known.
    if (code === 'Z_DATA_ERROR' && /incorrect header check/.test(err.message)) {
        return new errors/* InputError */.dz(`${label} has data after the end of its gzip stream: bytes that are not gzip follow the complete archive. ` +
            'gzip and GNU tar ignore such bytes with a warning ("trailing garbage ignored"), other extractors refuse the file, ' +
            'and what the platform does with it is not known. A copy or upload step usually appended them: rebuild the distribution, or cut ' +
            `them off with \`gzip -dc ${external_node_path_default().basename(absolute)} | gzip > fixed.tar.gz\` and deploy that.`);
    }
    if (typeof code === 'string' && code.startsWith('Z_')) {
        return new errors/* InputError */.dz(`${label} is a corrupt gzip file (${err.message}). ${REBUILD_HINT}`);
    }
    return undefined;
}
/** What deploys but likely not as meant: everything under one top-level folder, device or FIFO entries. */
function archiveWarnings(reader, label, absolute) {
    const warnings = [];
    const folder = reader.topLevel.folder;
    if (folder !== undefined) {
        warnings.push(`${label}: all ${reader.entries} entries sit under one top-level folder '${folder}/', but a brXM distribution unpacks at its root ` +
            `(webapps/, shared/, conf/, bin/), so the platform would find '${folder}/webapps/...' instead of 'webapps/...'. ` +
            `Repack it from inside that folder: \`tar -czf ${external_node_path_default().basename(absolute)} -C ${folder} .\`.`);
    }
    const special = reader.special;
    if (special !== undefined) {
        const what = special.count === 1 ? 'a device or FIFO entry' : `${special.count} device or FIFO entries`;
        warnings.push(`${label} holds ${what} (e.g. '${special.first}', ${special.kind}); they are no files to deploy, and an extractor without ` +
            'root privileges cannot make devices. Leave them out of the distribution.');
    }
    return warnings;
}
const FEED_CHUNK = 512 * 1024;
/**
 * Reads the file into three recycled buffers and writes them to gunzip, hashing each chunk on the
 * way: one chunk is read and hashed while zlib inflates the ones before it on the threadpool. A
 * buffer is reused only once gunzip's write callback says zlib has consumed it. Stops when the
 * consuming side (gunzip -> tar reader) fails.
 */
async function feed(file, gunzip, consuming, digest) {
    let failed = false;
    const stopped = consuming.then(() => undefined, () => {
        failed = true;
    });
    const buffers = [Buffer.allocUnsafeSlow(FEED_CHUNK), Buffer.allocUnsafeSlow(FEED_CHUNK), Buffer.allocUnsafeSlow(FEED_CHUNK)];
    const taken = buffers.map(() => undefined);
    const handle = await (0,promises_.open)(file, 'r');
    try {
        let position = 0;
        for (let i = 0;; i = (i + 1) % buffers.length) {
            if (taken[i] !== undefined)
                await Promise.race([taken[i], stopped]);
            if (failed)
                return;
            const buffer = buffers[i];
            const { bytesRead } = await handle.read(buffer, 0, buffer.length, position);
            if (bytesRead === 0)
                break;
            position += bytesRead;
            const chunk = buffer.subarray(0, bytesRead);
            digest(chunk);
            const written = new Promise((resolve, reject) => gunzip.write(chunk, (err) => (err ? reject(err) : resolve())));
            written.catch(() => undefined); // the error also fails `consuming`, which reports it
            taken[i] = written;
        }
        await Promise.race([Promise.all(taken), stopped]);
        if (!failed)
            gunzip.end();
    }
    finally {
        await handle.close();
    }
}

;// CONCATENATED MODULE: ./src/archive/tar-writer.ts
// A streaming POSIX tar (ustar + PAX extended headers) writer. It only produces tar bytes;
// compression is wired separately (pack.ts), so it can be swapped for a parallel compressor.



const tar_writer_BLOCK = 512;
/** Largest value of an 11-digit octal field (size, mtime): 8 GiB - 1. */
const MAX_OCTAL_11 = 0o77777777777;
const TYPEFLAG = { file: '0', symlink: '2', directory: '5' };
function writeOctal(block, offset, length, value) {
    const digits = Math.max(0, Math.floor(value))
        .toString(8)
        .padStart(length - 1, '0');
    if (digits.length > length - 1)
        throw new RangeError(`tar: value ${value} does not fit a ${length}-byte field`);
    block.write(digits, offset, length - 1, 'ascii');
    block[offset + length - 1] = 0;
}
/** Encodes one 512-byte ustar header block (with its checksum). */
function encodeUstarHeader(h) {
    const block = Buffer.alloc(tar_writer_BLOCK);
    h.name.copy(block, 0, 0, 100);
    writeOctal(block, 100, 8, h.mode & 0o7777);
    writeOctal(block, 108, 8, 0); // uid
    writeOctal(block, 116, 8, 0); // gid
    writeOctal(block, 124, 12, h.size);
    writeOctal(block, 136, 12, h.mtime);
    block.write(h.typeflag, 156, 1, 'ascii');
    h.linkname?.copy(block, 157, 0, 100);
    block.write('ustar\0', 257, 6, 'ascii');
    block.write('00', 263, 2, 'ascii');
    // uname (265..297) and gname (297..329) stay empty; devmajor/devminor zero.
    writeOctal(block, 329, 8, 0);
    writeOctal(block, 337, 8, 0);
    h.prefix?.copy(block, 345, 0, 155);
    block.fill(0x20, 148, 156);
    let sum = 0;
    for (const byte of block)
        sum += byte;
    block.write(sum.toString(8).padStart(6, '0'), 148, 6, 'ascii');
    block[154] = 0;
    block[155] = 0x20;
    return block;
}
/** Splits a name into ustar prefix (<= 155 bytes) and name (<= 100 bytes) at a '/', or returns undefined. */
function splitUstarName(name) {
    if (name.length <= 100)
        return { name, prefix: Buffer.alloc(0) };
    // The slash at index i separates prefix [0, i) from name [i + 1, end). The name part must be non-empty.
    for (let i = Math.min(155, name.length - 2); i > 0; i--) {
        if (name[i] !== 0x2f)
            continue;
        if (name.length - i - 1 > 100)
            return undefined; // smaller i only makes the name part longer
        return { prefix: name.subarray(0, i), name: name.subarray(i + 1) };
    }
    return undefined;
}
/** One PAX record "<len> <key>=<value>\n", where len counts the whole record. */
function paxRecord(key, value) {
    const body = Buffer.byteLength(key) + Buffer.byteLength(value) + 3;
    let length = body + 1;
    while (body + String(length).length !== length)
        length = body + String(length).length;
    return Buffer.from(`${length} ${key}=${value}\n`, 'utf8');
}
const isPlainAscii = (s) => /^[\x20-\x7e]*$/.test(s);
/** A printable-ASCII stand-in, cut to max bytes, for the ustar field when the real value lives in a PAX header. */
function fallbackField(value, max) {
    return Buffer.from(value.replace(/[^\x20-\x7e]/g, '_').slice(0, max), 'ascii');
}
function padding(size) {
    return (tar_writer_BLOCK - (size % tar_writer_BLOCK)) % tar_writer_BLOCK;
}
/** The header block(s) of an entry: an optional PAX 'x' header (with its data) then the ustar header. */
function encodeEntryHeader(entry) {
    // What a ustar field cannot hold goes into PAX records, in this order: path, linkpath, size, mtime.
    const pax = [];
    const { name, prefix } = ustarName(entry, pax);
    const linkname = entry.type === 'symlink' ? ustarLinkname(entry.linkname, pax) : undefined;
    const size = ustarSize(entry.type === 'file' ? entry.size : 0, pax);
    const mtime = ustarMtime(Math.floor(entry.mtime), pax);
    const header = encodeUstarHeader({
        name,
        prefix,
        mode: entry.mode,
        size,
        mtime,
        typeflag: TYPEFLAG[entry.type],
        linkname
    });
    if (pax.length === 0)
        return header;
    return Buffer.concat([...paxHeaderBlocks(entry.name, pax, mtime), header]);
}
/** The ustar name (and prefix) of an entry; a name they cannot hold as plain ASCII goes into a PAX 'path' record. */
function ustarName(entry, pax) {
    const split = splitUstarName(Buffer.from(entry.name, 'utf8'));
    if (split && isPlainAscii(entry.name))
        return { name: split.name, prefix: split.prefix };
    pax.push(paxRecord('path', entry.name));
    // The ustar field gets an ASCII stand-in, not raw UTF-8: a reader decodes it in its own charset
    // before the PAX record replaces it, and Java's Commons Compress fails on UTF-8 in the C locale.
    return { name: fallbackField(entry.name, 100), prefix: undefined };
}
/** A symlink's target in the ustar field, or in a PAX 'linkpath' record when it is long or not plain ASCII. */
function ustarLinkname(target, pax) {
    const linkBytes = Buffer.from(target, 'utf8');
    if (linkBytes.length <= 100 && isPlainAscii(target))
        return linkBytes;
    pax.push(paxRecord('linkpath', target));
    return fallbackField(target, 100);
}
/** A file's size for its 11-digit octal field; a larger one goes into a PAX 'size' record, the field says 0. */
function ustarSize(size, pax) {
    if (size <= MAX_OCTAL_11)
        return size;
    pax.push(paxRecord('size', String(size)));
    return 0;
}
/** An mtime for its 11-digit octal field; one before 1970 or past the field goes into a PAX 'mtime' record, the field the nearest it holds. */
function ustarMtime(mtime, pax) {
    if (mtime >= 0 && mtime <= MAX_OCTAL_11)
        return mtime;
    pax.push(paxRecord('mtime', String(mtime)));
    return mtime < 0 ? 0 : MAX_OCTAL_11;
}
/** The PAX 'x' header that carries the records, its data and the padding to a whole block. */
function paxHeaderBlocks(entryName, pax, mtime) {
    const data = Buffer.concat(pax);
    const base = entryName.replace(/\/+$/, '').split('/').pop() ?? 'entry';
    const paxHeader = encodeUstarHeader({
        name: fallbackField(`PaxHeaders/${base}`, 100),
        mode: 0o644,
        size: data.length,
        mtime,
        typeflag: 'x'
    });
    return [paxHeader, data, Buffer.alloc(padding(data.length))];
}
/** A 1-byte read past the listed size tells whether a file grew; what it reads is never used. */
const PROBE = Buffer.alloc(1);
/** A file that changed between its listing and its last byte read: refused, since the archive would not be what was listed. */
function changedWhilePacked(name, how) {
    return new errors/* InputError */.dz(`distribution: '${name}' changed while it was being packed (${how}). ` +
        'Make sure no other step or process writes into the distribution directory while this action runs, then run it again.');
}
/** A file that could not be read: a deleted one changed; anything else is named with its code. */
function unreadable(name, err) {
    const code = err.code;
    if (code === 'ENOENT')
        return changedWhilePacked(name, 'it was deleted');
    return new errors/* InputError */.dz(`distribution: cannot read '${name}' (${code ?? err.message}). ` +
        'Make sure the user running the action can read every file in the distribution directory.');
}
/**
 * After a file's last read: grown (a byte past its listed size), or rewritten at the same size (GNU tar:
 * "file changed as we read it": size and modification time against what the listing saw) is refused.
 * Both asked at once: one trip to the thread pool, not two, for each of a tree's thousands of small files.
 */
async function checkUnchangedAfterRead(handle, file) {
    let more;
    let after;
    try {
        ;
        [more, after] = await Promise.all([
            handle.read(PROBE, 0, 1, file.size).then((r) => r.bytesRead),
            file.listedMtimeMs === undefined ? undefined : handle.stat()
        ]);
    }
    catch (err) {
        throw unreadable(file.name, err);
    }
    if (more > 0)
        throw changedWhilePacked(file.name, `it grew beyond the ${file.size} bytes it had when listed`);
    if (after === undefined)
        return;
    if (after.size !== file.size)
        throw changedWhilePacked(file.name, `its size went from ${file.size} to ${after.size} bytes`);
    if (after.mtimeMs !== file.listedMtimeMs)
        throw changedWhilePacked(file.name, 'it was rewritten while it was read: its modification time moved');
}
/** The file's content from byte `from` (the bytes before it were taken by reference), then its padding. */
async function writeFileContent(entry, sink, options, from = 0) {
    const changed = (how) => changedWhilePacked(entry.name, how);
    const failed = (err) => unreadable(entry.name, err);
    if (entry.size > from) {
        let handle;
        try {
            handle = await (0,promises_.open)(entry.sourcePath, 'r');
        }
        catch (err) {
            throw failed(err);
        }
        try {
            const most = options.readChunkSize ?? Number.POSITIVE_INFINITY;
            let read = from;
            while (read < entry.size) {
                const room = await sink.reserve();
                let n;
                try {
                    n = (await handle.read(room, 0, Math.min(room.length, entry.size - read, most), read)).bytesRead;
                }
                catch (err) {
                    throw failed(err);
                }
                if (n === 0)
                    throw changed(`it shrank from ${entry.size} to ${read} bytes`);
                read += n;
                options.onData?.(n);
                await sink.commit(n);
            }
            await checkUnchangedAfterRead(handle, entry);
        }
        finally {
            // Not waited for: nothing is read from it any more, and the next file need not queue behind it.
            handle.close().catch(() => undefined);
        }
    }
    const pad = padding(entry.size);
    if (pad > 0)
        await sink.write(Buffer.alloc(pad));
}
/**
 * Writes the tar of the given entries into a sink: each entry's header, then each file's content
 * read from disk chunk by chunk as the sink makes room, then the end-of-archive marker.
 */
async function writeTar(entries, sink, options = {}) {
    for await (const entry of entries) {
        await sink.write(encodeEntryHeader(entry));
        if (entry.type !== 'file')
            continue;
        const taken = entry.size > 0 && sink.takeFile !== undefined ? await sink.takeFile(entry) : 0;
        if (taken > 0)
            options.onData?.(taken); // read when the archive is sent
        await writeFileContent(entry, sink, options, taken);
    }
    await sink.write(Buffer.alloc(2 * tar_writer_BLOCK)); // end-of-archive marker
}
/**
 * A Readable of tar bytes for the given entries, produced lazily: each file is read from disk when
 * the consumer asks for more, so memory stays flat whatever the size of the tree.
 */
function createTarStream(entries, options = {}) {
    const chunkSize = options.readChunkSize ?? 256 * 1024;
    let started = false;
    let room;
    let resume;
    const wake = () => {
        const r = resume;
        resume = undefined;
        r?.();
    };
    const readable = new Readable({
        read() {
            if (!started) {
                started = true;
                writeTar(entries, sink, options).then(() => readable.push(null), (err) => readable.destroy(err));
            }
            wake();
        },
        destroy(error, callback) {
            wake();
            callback(error);
        }
    });
    const alive = () => {
        if (readable.destroyed)
            throw Object.assign(new Error('the tar stream was destroyed'), { code: 'ERR_STREAM_DESTROYED' });
    };
    const give = async (bytes) => {
        alive();
        if (!readable.push(bytes))
            await new Promise((resolve) => (resume = resolve));
        alive();
    };
    const sink = {
        write: (bytes) => give(bytes),
        reserve() {
            room = Buffer.allocUnsafe(chunkSize);
            return room;
        },
        commit: (bytes) => give(room.subarray(0, bytes))
    };
    return readable;
}

;// CONCATENATED MODULE: ./src/archive/classify.ts
// Which files keep their own compression: a jar, a war, an image or a font is already deflated, and
// deflating it again costs nearly all of the packing time for 0-5% of its size. Such a file goes
// into the gzip stream as stored blocks (stored-blocks.ts); everything else is deflated.
//
// The test is a trial on the content, not a list of extensions or magic numbers: five 4 KiB samples
// spread over the file, and a file whose median sample carries more than 7.44 bits of information per
// byte (order-0 entropy: what deflate's Huffman stage could at best save is under 7%) is stored. A trial
// catches what a list misses both ways: a jar of stored (uncompressed) entries, as NetBeans ships them,
// is deflated; an encrypted or random file with no known magic number is stored. The median leaves out
// a zip's central directory (its last sample), which is text and is deflated on its own (storedPrefix).
// Entropy, not a deflate at level 1: measured on the real-jar tree, the same decisions but for a few
// jars (the archive 1.4% larger than GNU tar's, against 1.2%), in 0.3 s of packing instead of 0.42,
// and 5 MiB less peak memory (a zlib stream per sample is 300 KiB of native memory, 1,400 of them).
// The same bytes always give the same answer, so the archive is reproducible.


/** Files smaller than this are deflated without a trial: a stored run would save next to nothing. */
const TRIAL_MIN = 16 * 1024;
const SAMPLE = 4 * 1024;
const SAMPLES = 5;
/** A sample with at least this many bits of information per byte counts as already compressed. */
const STORE_BITS = 7.44;
/** Where the samples of a file of `size` bytes start: the whole file when it is small, else evenly spread, the last at its end. */
function samplePositions(size) {
    if (size <= SAMPLES * SAMPLE)
        return [{ position: 0, length: size }];
    const span = size - SAMPLE;
    return Array.from({ length: SAMPLES }, (_, i) => ({ position: Math.floor((i * span) / (SAMPLES - 1)), length: SAMPLE }));
}
/** Order-0 entropy: the bits per byte an ideal coder of single bytes would need for `sample`. */
function bitsPerByte(sample) {
    const counts = new Uint32Array(256);
    for (const byte of sample)
        counts[byte]++;
    let bits = 0;
    for (const count of counts) {
        if (count === 0)
            continue;
        const p = count / sample.length;
        bits -= p * Math.log2(p);
    }
    return bits;
}
/** The median of the samples' bits per byte. */
function medianBits(samples) {
    const bits = samples.map(bitsPerByte).sort((a, b) => a - b);
    return bits[Math.floor(bits.length / 2)];
}
/**
 * How many of the file's first bytes are stored as they are: 0 (deflated whole), its size (already
 * compressed), or, for a zip (jar, war, ear), all but its central directory. That directory is a list
 * of names, text that gzip -6 shrinks by three quarters: 4.9 MB of the real-jar tree's 241, and 3.9 MB
 * of what deflating the whole jars saved. `name` is the file's name in the archive, for errors.
 */
async function storedPrefix(file, size, name) {
    if (size < TRIAL_MIN)
        return 0;
    let handle;
    try {
        handle = await (0,promises_.open)(file, 'r');
        const samples = [];
        for (const { position, length } of samplePositions(size)) {
            const sample = await readAt(handle, position, length);
            if (sample.length > 0)
                samples.push(sample);
        }
        if (samples.length === 0 || medianBits(samples) < STORE_BITS)
            return 0;
        const head = samples[0].subarray(0, 4);
        // Most zips end with their end record and no comment: 22 bytes tell; else the longest tail it may take.
        const short = await readAt(handle, size - 22, 22);
        const entriesEnd = zipEntriesEnd(head, short, size);
        if (entriesEnd !== undefined || size <= 22)
            return entriesEnd ?? size;
        const tailLength = Math.min(size, ZIP_TAIL_MAX);
        return zipEntriesEnd(head, await readAt(handle, size - tailLength, tailLength), size) ?? size;
    }
    catch (err) {
        throw unreadable(name, err);
    }
    finally {
        await handle?.close().catch(() => undefined);
    }
}
/** Up to `length` bytes at `position`; fewer when the file shrank (the packer's own read says so, with the sizes). */
async function readAt(handle, position, length) {
    const buffer = Buffer.allocUnsafe(length);
    let filled = 0;
    while (filled < length) {
        const { bytesRead } = await handle.read(buffer, filled, length - filled, position + filled);
        if (bytesRead === 0)
            break;
        filled += bytesRead;
    }
    return buffer.subarray(0, filled);
}
/** The end-of-central-directory record (22 bytes) and the longest comment it may have. */
const ZIP_TAIL_MAX = 22 + 0xffff;
const EOCD = 0x06054b50;
const LOCAL_HEADER = 0x04034b50;
/**
 * Where a zip's local entries end and its central directory begins, from the file's first bytes and
 * its tail; undefined when it is not a plain zip whose central directory runs from there to the end
 * record (ZIP64, a prefix before the first entry, a directory elsewhere): such a file is stored whole.
 */
function zipEntriesEnd(head, tail, size) {
    if (head.length < 4 || head.readUInt32LE(0) !== LOCAL_HEADER)
        return undefined;
    for (let at = tail.length - 22; at >= 0; at--) {
        if (tail.readUInt32LE(at) !== EOCD)
            continue;
        if (at + 22 + tail.readUInt16LE(at + 20) !== tail.length)
            continue; // a signature inside the comment
        const directorySize = tail.readUInt32LE(at + 12);
        const directoryOffset = tail.readUInt32LE(at + 16);
        const recordOffset = size - tail.length + at;
        if (directoryOffset === 0 || directoryOffset === 0xffffffff || directoryOffset + directorySize !== recordOffset)
            return undefined;
        return directoryOffset;
    }
    return undefined;
}

;// CONCATENATED MODULE: ./src/archive/parallel-gzip.ts
// gzip on every core, the way pigz does it, with Node's own zlib and no dependency.
//
// The input is cut into blocks. Each block is deflated on its own on libuv's threadpool (Node's
// async zlib calls run there, so several blocks in flight use several cores), primed with the last
// 32 KiB of the input before it as its dictionary, so matches reach back across the cut as they
// would in one long deflate. Every block but the last ends with a sync flush (an empty stored block:
// the output ends on a byte boundary and no block is marked final); the last one ends with
// Z_FINISH. Concatenated in order, the pieces are one ordinary raw deflate stream; with a standard
// 10-byte gzip header and the trailer (CRC-32 and length mod 2^32 of the input) that is a single
// gzip member that any gzip reader takes.
//
// Memory is bounded and flat:
// - at most `maxInFlight` blocks are between "full" and "pushed to the reader"; a writer waits (its
//   write callback, or the promise of reserve()/writeBytes()) while that many are, so a slow reader
//   stops the writer instead of making this stream buffer everything;
// - at most `concurrency` of them are being deflated at once; by default one thread of libuv's pool
//   stays free so file reads and writes (which run there too) never queue behind compression;
// - block buffers are recycled, and a producer can read file content straight into them
//   (reserve() + commit()), so packing allocates no buffer per chunk read. Fresh buffers that are
//   garbage a moment later are what makes a Node process's RSS climb well past what it holds.




/** Deflate's window: the dictionary handed to each block is at most this much of the input before it. */
const WINDOW = 32 * 1024;
const DEFAULT_BLOCK_SIZE = 512 * 1024;
let crcTable;
/** CRC-32 (the gzip one) for Node versions without zlib.crc32 (before 20.15 and 22.2). */
function crc32Fallback(data, value = 0) {
    if (crcTable === undefined) {
        crcTable = new Uint32Array(256);
        for (let n = 0; n < 256; n++) {
            let c = n;
            for (let k = 0; k < 8; k++)
                c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
            crcTable[n] = c >>> 0;
        }
    }
    const table = crcTable;
    let crc = (value ^ 0xffffffff) >>> 0;
    for (let i = 0; i < data.length; i++)
        crc = table[(crc ^ data[i]) & 0xff] ^ (crc >>> 8);
    return (crc ^ 0xffffffff) >>> 0;
}
const nativeCrc32 = (external_node_zlib_default()).crc32;
const crc32 = typeof nativeCrc32 === 'function' ? nativeCrc32 : crc32Fallback;
/** The 10-byte gzip header: deflate, no name, no mtime (reproducible), XFL from the level, OS Unix. */
function gzipHeader(level) {
    const xfl = level === 9 ? 2 : level === 1 ? 4 : 0;
    return Buffer.from([0x1f, 0x8b, 0x08, 0x00, 0, 0, 0, 0, xfl, 0x03]);
}
/** libuv's threadpool size (UV_THREADPOOL_SIZE, default 4). */
function threadpoolSize() {
    const n = Number(process.env.UV_THREADPOOL_SIZE);
    return Number.isInteger(n) && n > 0 ? Math.min(n, 1024) : 4;
}
function defaultConcurrency() {
    return Math.max(1, Math.min((0,external_node_os_.availableParallelism)(), threadpoolSize() - 1));
}
const EMPTY = Buffer.alloc(0);
class ParallelGzip extends external_node_stream_.Duplex {
    level;
    raw;
    blockSize;
    maxInFlight;
    concurrency;
    relief;
    /** The block being filled and how much of it is filled. */
    block;
    fill = 0;
    /** The last (at most) 32 KiB of the input handed over so far: a view into the last block, or a copy. */
    dictionary;
    /** Blocks handed over and not yet pushed, in input order. */
    jobs = [];
    lastJob;
    running = 0;
    pool = [];
    roomWaiters = [];
    finished;
    ended = false;
    wantsData = false;
    headerPushed = false;
    crc = 0;
    length = 0;
    /** The input's CRC-32 and length since the last cut(). */
    runCrc = 0;
    runLength = 0;
    /** Output bytes pushed so far. */
    pushed = 0;
    peak = 0;
    runningPeak = 0;
    blocks = 0;
    buffers = 0;
    constructor(options = {}) {
        super({ allowHalfOpen: true });
        this.level = options.level ?? 6;
        this.raw = options.raw ?? false;
        this.blockSize = options.blockSize ?? DEFAULT_BLOCK_SIZE;
        this.concurrency = options.concurrency ?? defaultConcurrency();
        // More in flight buys no speed (measured: 3 and 4 pack a 300 MB tree equally fast on 2 cores)
        // and costs a block and its output each.
        this.maxInFlight = options.maxInFlight ?? this.concurrency + 1;
        this.relief = options.relief === false ? undefined : (options.relief ?? new GarbageRelief());
        if (!Number.isInteger(this.level) || this.level < 0 || this.level > 9)
            throw new RangeError(`gzip level ${this.level} is not 0-9`);
        for (const [name, value] of [
            ['blockSize', this.blockSize],
            ['maxInFlight', this.maxInFlight],
            ['concurrency', this.concurrency]
        ]) {
            if (!Number.isInteger(value) || value < 1)
                throw new RangeError(`${name} ${value} is not a positive whole number`);
        }
    }
    /** Blocks handed over and not yet pushed, now. */
    get inFlight() {
        return this.jobs.length;
    }
    /** The most blocks ever in flight and deflating at once, blocks compressed, input bytes, block buffers allocated. */
    get stats() {
        return { inFlightPeak: this.peak, runningPeak: this.runningPeak, blocks: this.blocks, bytesIn: this.length, buffers: this.buffers };
    }
    /**
     * Free room in the current block, to read input into directly; waits while `maxInFlight` blocks
     * are in flight. Valid until the next commit(); then commit() the bytes written at its start.
     * One producer at a time; do not mix with write().
     */
    async reserve() {
        if (this.block !== undefined && this.fill < this.blockSize)
            return this.block.subarray(this.fill);
        if (this.block !== undefined) {
            // A full block is handed over only once more input comes, so the last block is always the one
            // end() hands over (with Z_FINISH), even when the input ends on a block boundary.
            await this.room();
            this.submit(false);
        }
        this.assertOpen();
        this.block = this.pool.pop() ?? this.allocate();
        this.fill = 0;
        return this.block;
    }
    /** Takes `bytes` written at the start of what reserve() returned. */
    commit(bytes) {
        if (this.block === undefined || !Number.isInteger(bytes) || bytes < 0 || this.fill + bytes > this.blockSize) {
            throw new RangeError(`commit(${bytes}) does not match the room reserve() gave`);
        }
        this.fill += bytes;
    }
    /**
     * Ends the run of output here, on a byte boundary (the last block ends with a sync flush): what is
     * written next starts a new run with no dictionary, since bytes that are not this stream's (stored
     * blocks) go between the two. `at` is called with where the run ends once all of it was pushed.
     */
    async cut(at) {
        if (this.block !== undefined) {
            await this.room();
            this.submit(false);
        }
        this.assertOpen();
        const end = { crc: this.runCrc, inputLength: this.runLength };
        this.runCrc = 0;
        this.runLength = 0;
        this.dictionary = undefined;
        const tail = this.lastJob;
        if (tail !== undefined) {
            tail.endsRun = true;
            this.recycle(tail);
        }
        this.lastJob = undefined;
        const marker = { buffer: EMPTY, length: 0, last: false, dictionary: undefined, started: true, done: true, recycled: true };
        marker.marker = () => at({ outputEnd: this.pushed, ...end });
        this.jobs.push(marker);
        this.pushReady();
    }
    /** Copies `bytes` in; resolves once they are taken (the caller may then reuse its buffer). */
    async writeBytes(bytes) {
        let offset = 0;
        while (offset < bytes.length) {
            const room = await this.reserve();
            const n = Math.min(room.length, bytes.length - offset);
            room.set(bytes.subarray(offset, offset + n));
            this.commit(n);
            offset += n;
        }
    }
    _write(chunk, _encoding, callback) {
        this.writeBytes(chunk).then(() => callback(), callback);
    }
    _final(callback) {
        this.room()
            .then(() => {
            this.assertOpen();
            this.submit(true);
            return new Promise((resolve) => {
                this.finished = resolve;
                this.pushReady();
            });
        })
            .then(() => callback(), callback);
    }
    _read() {
        this.wantsData = true;
        this.pushReady();
    }
    _destroy(error, callback) {
        this.jobs.length = 0;
        this.pool.length = 0;
        this.block = undefined;
        this.dictionary = undefined;
        this.lastJob = undefined;
        this.wake();
        callback(error);
    }
    assertOpen() {
        if (this.destroyed)
            throw Object.assign(new Error('the gzip stream was destroyed'), { code: 'ERR_STREAM_DESTROYED' });
    }
    allocate() {
        this.buffers++;
        return Buffer.allocUnsafeSlow(this.blockSize);
    }
    /** Resolves once fewer than maxInFlight blocks are in flight. */
    async room() {
        while (this.jobs.length >= this.maxInFlight) {
            this.assertOpen();
            await new Promise((resolve) => this.roomWaiters.push(resolve));
        }
        this.assertOpen();
    }
    wake() {
        const waiters = this.roomWaiters;
        this.roomWaiters = [];
        for (const resolve of waiters)
            resolve();
    }
    submit(last) {
        const buffer = this.block ?? EMPTY;
        const data = buffer.subarray(0, this.fill);
        this.crc = crc32(data, this.crc);
        this.length += data.length;
        this.runCrc = crc32(data, this.runCrc);
        this.runLength += data.length;
        const job = { buffer, length: data.length, last, dictionary: this.dictionary, started: false, done: false, recycled: false };
        if (this.block === undefined)
            job.recycled = true; // nothing to recycle
        if (this.lastJob !== undefined) {
            this.lastJob.next = job;
            job.previous = this.lastJob;
        }
        this.lastJob = job;
        this.jobs.push(job);
        this.blocks++;
        this.peak = Math.max(this.peak, this.jobs.length);
        this.dictionary = nextDictionary(this.dictionary, data);
        this.block = undefined;
        this.fill = 0;
        if (last)
            this.ended = true;
        this.startJobs();
    }
    /** Starts queued blocks, in order, while fewer than `concurrency` are being deflated. */
    startJobs() {
        for (const job of this.jobs) {
            if (this.running >= this.concurrency)
                return;
            if (job.started)
                continue;
            job.started = true;
            this.running++;
            this.runningPeak = Math.max(this.runningPeak, this.running);
            const options = {
                level: this.level,
                // The largest hash table: 3-4% less CPU than the default 8 for 0.02% more bytes, at the same level.
                memLevel: 9,
                // 64 KiB output buffers: zlib comes back to JS each time one fills, which costs nothing measurable,
                // while one buffer the size of the block (as before) held 530 KiB for 120 KiB of output: measured on
                // the 300 MiB bench tree, packing peaked at 76 MiB RSS with those, 69 MiB with these.
                chunkSize: 64 * 1024,
                finishFlush: job.last ? (external_node_zlib_default()).constants.Z_FINISH : (external_node_zlib_default()).constants.Z_SYNC_FLUSH
            };
            if (job.dictionary !== undefined)
                options.dictionary = job.dictionary;
            external_node_zlib_default().deflateRaw(job.buffer.subarray(0, job.length), options, (error, out) => {
                if (this.destroyed)
                    return;
                this.running--;
                if (error) {
                    this.destroy(error);
                    return;
                }
                job.done = true;
                job.out = out;
                job.dictionary = undefined;
                const previous = job.previous;
                this.recycle(job);
                if (previous)
                    this.recycle(previous);
                this.startJobs();
                this.pushReady();
            });
        }
    }
    /** Returns a block buffer to the pool once its block is done and no block still reads its dictionary from it. */
    recycle(job) {
        if (job.recycled || !job.done || !(job.last || job.endsRun === true || job.next?.done))
            return;
        job.recycled = true;
        job.previous = undefined;
        if (job.next)
            job.next.previous = undefined;
        if (this.pool.length <= this.maxInFlight)
            this.pool.push(job.buffer);
    }
    /** Pushes finished blocks in order while the reader wants data, then lets the writer go on. */
    pushReady() {
        let freed = false;
        while (this.wantsData && !this.destroyed) {
            const head = this.jobs[0];
            if (head?.marker !== undefined) {
                this.jobs.shift();
                freed = true;
                head.marker();
                continue;
            }
            if (head === undefined || !head.done || head.out === undefined)
                break;
            this.jobs.shift();
            freed = true;
            let out = head.out;
            head.out = undefined;
            if (!this.raw && !this.headerPushed) {
                out = Buffer.concat([gzipHeader(this.level), out]);
                this.headerPushed = true;
            }
            this.pushed += out.length;
            this.wantsData = this.push(out);
            // zlib allocated the whole buffer `out` is a view of; it is garbage once the reader is done.
            this.relief?.produce(out.buffer.byteLength);
        }
        if (this.destroyed)
            return;
        if (freed)
            this.wake();
        if (this.ended && this.jobs.length === 0 && this.finished !== undefined) {
            if (!this.raw) {
                const trailer = Buffer.alloc(8);
                trailer.writeUInt32LE(this.crc >>> 0, 0);
                trailer.writeUInt32LE(this.length % 0x100000000, 4);
                this.push(trailer);
            }
            this.push(null);
            const finished = this.finished;
            this.finished = undefined;
            finished();
        }
    }
}
/** The last WINDOW bytes of (previous dictionary + data): a view into data when it is long enough, else a copy. */
function nextDictionary(previous, data) {
    if (data.length >= WINDOW)
        return data.subarray(data.length - WINDOW);
    if (data.length === 0)
        return previous;
    const joined = previous === undefined ? Buffer.from(data) : Buffer.concat([previous, data]);
    return joined.length > WINDOW ? joined.subarray(joined.length - WINDOW) : joined;
}
/** A drop-in for zlib.createGzip({ level }) that compresses on every core. */
function createParallelGzip(options = {}) {
    return new ParallelGzip(options);
}

;// CONCATENATED MODULE: ./src/archive/stored-blocks.ts
// Deflate's stored blocks, and the CRC-32 arithmetic that lets a gzip member be assembled from parts.
//
// A stored block (RFC 1951, 3.2.4) carries up to 65,535 bytes as they are: on a byte boundary, one
// byte with BFINAL and BTYPE 00, then LEN and its ones' complement NLEN, little-endian, then the
// bytes. Content that is already compressed (a jar, a war, an image) is framed this way instead of
// being deflated again: 5 bytes per 64 KiB, and no CPU.
/** The most bytes one stored block carries. */
const STORED_BLOCK_MAX = 65_535;
/** Writes the 5-byte header of a stored block of `length` bytes, starting on a byte boundary, at `at`. */
function writeStoredBlockHeader(target, at, length, final) {
    if (!Number.isInteger(length) || length < 0 || length > STORED_BLOCK_MAX)
        throw new RangeError(`a stored block holds 0-${STORED_BLOCK_MAX} bytes, not ${length}`);
    target[at] = final ? 1 : 0;
    target.writeUInt16LE(length, at + 1);
    target.writeUInt16LE(~length & 0xffff, at + 3);
}
/** Bytes that `size` bytes of content take as stored blocks (none for an empty file). */
function storedLength(size) {
    return size + 5 * Math.ceil(size / STORED_BLOCK_MAX);
}
function times(matrix, vector) {
    let sum = 0;
    for (let i = 0; vector !== 0; i++, vector >>>= 1)
        if (vector & 1)
            sum ^= matrix[i];
    return sum >>> 0;
}
function square(target, matrix) {
    for (let n = 0; n < 32; n++)
        target[n] = times(matrix, matrix[n]);
}
/**
 * The CRC-32 of A followed by B, from crc(A), crc(B) and B's length: zlib's crc32_combine, which
 * Node does not expose. The stored parts' CRCs are known only when they are sent, after the deflated
 * parts' were computed while packing.
 */
function crc32Combine(crcA, crcB, lengthB) {
    if (lengthB <= 0)
        return crcA >>> 0;
    const even = new Uint32Array(32); // an operator for 2^k zero bits, alternately
    const odd = new Uint32Array(32);
    odd[0] = 0xedb88320; // the operator for one zero bit: the CRC's polynomial, reflected
    for (let n = 1, row = 1; n < 32; n++, row = (row << 1) >>> 0)
        odd[n] = row;
    square(even, odd); // two zero bits
    square(odd, even); // four zero bits
    let crc = crcA >>> 0;
    let length = lengthB;
    for (;;) {
        square(even, odd); // eight zero bits (one byte), then 4, 16, ... bytes
        if (length % 2 === 1)
            crc = times(even, crc);
        length = Math.floor(length / 2);
        if (length === 0)
            break;
        square(odd, even);
        if (length % 2 === 1)
            crc = times(odd, crc);
        length = Math.floor(length / 2);
        if (length === 0)
            break;
    }
    return (crc ^ crcB) >>> 0;
}

;// CONCATENATED MODULE: ./src/archive/packed-archive.ts
// A packed directory, ready to send: the gzip member as a list of pieces whose length is known to the
// byte before the first byte goes out. Deflated runs (tar headers and compressible content) wait in
// the spill; already-compressed files are read from the tree when sent, framed as stored blocks.
//
//   [gzip header][deflated run][stored blocks of a jar][deflated run] ... [final deflated run][trailer]
//
// read() produces those bytes from the first, as often as asked (a retry sends the same bytes and
// deflates nothing again), computing CRC-32 (for the trailer), MD5 and SHA-256 on the way. A stored
// file that changed since it was listed stops the read before the trailer, so no whole archive that
// differs from the listing is ever sent; a second read also compares each file's CRC-32 with the first's.







function pieceLength(piece) {
    return piece.kind === 'deflated' ? piece.end - piece.start : storedLength(piece.length);
}
/** Stored blocks read per chunk: four blocks, about 256 KiB. */
const BLOCKS_PER_CHUNK = 4;
class PackedArchive {
    fileName;
    size;
    entries;
    warnings;
    /** Settles with the first whole read (an upload's, or hashes()'s); rejects when the tree changed under it. */
    verified;
    level;
    pieces;
    spill;
    settle;
    settled = false;
    constructor(init) {
        this.fileName = init.fileName;
        this.level = init.level;
        this.pieces = init.pieces;
        this.spill = init.spill;
        this.entries = init.entries;
        this.warnings = init.warnings;
        this.size = 10 + init.pieces.reduce((sum, p) => sum + pieceLength(p), 0) + 8;
        this.verified = new Promise((resolve, reject) => (this.settle = { resolve, reject }));
        this.verified.catch(() => undefined); // whoever awaits it reports the failure
    }
    /** What is stored as it is and what was deflated: files and content bytes. */
    get composition() {
        let storedFiles = 0;
        let storedBytes = 0;
        let deflatedBytes = 0;
        for (const p of this.pieces) {
            if (p.kind === 'stored') {
                storedFiles++;
                storedBytes += p.length;
            }
            else
                deflatedBytes += p.inputLength;
        }
        return { storedFiles, storedBytes, deflatedBytes };
    }
    /** The hashes: those of the first whole read, reading the archive for them when none was made yet. */
    async hashes() {
        if (!this.settled)
            for await (const chunk of this.read())
                void chunk;
        return this.verified;
    }
    /** The archive's bytes from the first; each call reads the stored files again. */
    async *read() {
        // On this thread: a worker thread took 0.06 s off a 0.55 s read of the real-jar tree and added 100 MB
        // of copies waiting for its collector (measured; docs/benchmarks.md).
        const sha256 = (0,external_node_crypto_.createHash)('sha256');
        const md5 = (0,external_node_crypto_.createHash)('md5');
        // One for the whole read: per file, a small file would end before its first collection was due. Every
        // 5 ms at most (not 20): a chunk is garbage once the socket took it, and the read outpaces the compressor
        // the default was measured for; the real-jar tree's read peaked 5 MiB lower.
        const relief = new GarbageRelief({ interval: 5 });
        let sent = 0;
        const out = (bytes) => {
            sha256.update(bytes);
            md5.update(bytes);
            sent += bytes.length;
            return bytes;
        };
        let crc = 0;
        let inputLength = 0;
        try {
            yield out(gzipHeader(this.level));
            for (const piece of this.pieces) {
                if (piece.kind === 'deflated') {
                    for await (const chunk of this.spill.range(piece.start, piece.end))
                        yield out(chunk);
                    crc = crc32Combine(crc, piece.crc, piece.inputLength);
                    inputLength += piece.inputLength;
                    continue;
                }
                let fileCrc = 0;
                for await (const chunk of storedBlocks(piece, relief, (data) => (fileCrc = crc32(data, fileCrc))))
                    yield out(chunk);
                if (piece.crc !== undefined && piece.crc !== fileCrc)
                    throw changedWhilePacked(piece.name, 'its content differs from the first time it was sent');
                piece.crc = fileCrc;
                crc = crc32Combine(crc, fileCrc, piece.length);
                inputLength += piece.length;
            }
            const trailer = Buffer.alloc(8);
            trailer.writeUInt32LE(crc >>> 0, 0);
            trailer.writeUInt32LE(inputLength % 0x100000000, 4);
            yield out(trailer);
            if (sent !== this.size)
                throw new Error(`packing '${this.fileName}': sent ${sent} bytes where ${this.size} were counted`);
            if (!this.settled) {
                this.settled = true;
                this.settle.resolve({
                    fileName: this.fileName,
                    size: sent,
                    sha256: sha256.digest('hex'),
                    md5: md5.digest('hex'),
                    entries: this.entries,
                    packed: true,
                    ...(this.warnings.length > 0 ? { warnings: this.warnings } : {})
                });
            }
        }
        catch (error) {
            // The tree changed: no read of this plan can give the archive it describes.
            if (error instanceof errors/* InputError */.dz && !this.settled) {
                this.settled = true;
                this.settle.reject(error);
            }
            throw error;
        }
    }
    /** Frees the spill (the caller deletes its directory). */
    release() {
        return this.spill.release();
    }
}
/** A file's content as stored blocks, about 256 KiB a chunk, each a fresh buffer; `onData` sees the content. */
async function* storedBlocks(piece, relief, onData) {
    const changed = (how) => changedWhilePacked(piece.name, how);
    let handle;
    try {
        handle = await (0,promises_.open)(piece.path, 'r');
    }
    catch (err) {
        throw unreadable(piece.name, err);
    }
    let ahead;
    try {
        const before = await handle.stat();
        if (before.size !== piece.fileSize)
            throw changed(`its size went from ${piece.fileSize} to ${before.size} bytes`);
        if (piece.mtimeMs !== undefined && before.mtimeMs !== piece.mtimeMs)
            throw changed('it was rewritten after it was listed: its modification time moved');
        // The next chunk is read while this one is sent.
        const file = handle;
        let next = readFramed(file, 0, piece, changed);
        ahead = next;
        for (let read = 0;;) {
            const framed = await next;
            read += framed.contentLength;
            const more = read < piece.length;
            if (more) {
                next = readFramed(file, read, piece, changed);
                next.catch(() => undefined); // awaited on the next turn, or dropped with the read
            }
            ahead = more ? next : undefined;
            for (const data of framed.data)
                onData(data);
            relief.produce(framed.chunk.length);
            yield framed.chunk;
            if (!more)
                break;
        }
        await checkUnchangedAfterRead(handle, { name: piece.name, size: piece.fileSize, listedMtimeMs: piece.mtimeMs });
    }
    finally {
        await ahead?.catch(() => undefined); // no read left running on a closed handle
        await handle.close().catch(() => undefined);
    }
}
/** Up to four stored blocks of the file from `position`, read with one readv into their places in a fresh chunk (exported for its tests). */
async function readFramed(handle, position, piece, changed) {
    const blocks = Math.min(BLOCKS_PER_CHUNK, Math.ceil((piece.length - position) / STORED_BLOCK_MAX));
    const contentLength = Math.min(piece.length - position, blocks * STORED_BLOCK_MAX);
    const chunk = Buffer.allocUnsafe(contentLength + 5 * blocks);
    const data = [];
    for (let b = 0, at = 0; b < blocks; b++) {
        const length = Math.min(STORED_BLOCK_MAX, contentLength - b * STORED_BLOCK_MAX);
        writeStoredBlockHeader(chunk, at, length, false);
        data.push(chunk.subarray(at + 5, at + 5 + length));
        at += 5 + length;
    }
    try {
        const filled = (await handle.readv(data, position)).bytesRead;
        // A short read (rare on a regular file) is finished part by part.
        let offset = 0;
        for (const part of data) {
            const start = Math.max(0, filled - offset);
            for (let got = start; got < part.length;) {
                const n = (await handle.read(part, got, part.length - got, position + offset + got)).bytesRead;
                if (n === 0)
                    throw changed(`it shrank from ${piece.fileSize} to ${position + offset + got} bytes`);
                got += n;
            }
            offset += part.length;
        }
    }
    catch (err) {
        if (err instanceof errors/* InputError */.dz)
            throw err;
        throw unreadable(piece.name, err);
    }
    return { chunk, data, contentLength };
}

;// CONCATENATED MODULE: ./src/archive/spill.ts
// Where the deflated parts of a packed archive wait between packing and sending: in memory while they
// are small, in a temporary file once they pass `memoryLimit`, so memory stays flat whatever the tree.
// Written once, in order; then read as often as an upload is sent (a retry sends the same bytes). The
// file is open only while written and while a range is read, so deleting its directory is all the
// cleanup there is.



/** Small: what is held in memory is copied out of zlib's output buffers, which are far larger than what they hold. */
const DEFAULT_SPILL_MEMORY = 1024 * 1024;
const READ_CHUNK = 256 * 1024;
class Spill extends external_node_stream_.Writable {
    path;
    memoryLimit;
    chunks = [];
    file;
    spilled = false;
    written = 0;
    /** `path`: the temporary file, created only when the parts pass `memoryLimit` bytes. */
    constructor(path, memoryLimit = DEFAULT_SPILL_MEMORY) {
        super();
        this.path = path;
        this.memoryLimit = memoryLimit;
    }
    /** Bytes written so far. */
    get length() {
        return this.written;
    }
    /** True once the parts went to the file. */
    get onDisk() {
        return this.spilled;
    }
    _write(chunk, _encoding, callback) {
        this.append(chunk).then(() => callback(), callback);
    }
    _final(callback) {
        this.closeFile().then(() => callback(), callback);
    }
    _destroy(error, callback) {
        this.closeFile().then(() => callback(error), callback);
    }
    async closeFile() {
        const file = this.file;
        this.file = undefined;
        await file?.close();
    }
    async append(chunk) {
        const at = this.written;
        this.written += chunk.length;
        if (!this.spilled && this.written <= this.memoryLimit) {
            // A copy: the chunk is a view into a buffer zlib sized for a whole block.
            this.chunks.push(Buffer.from(chunk));
            return;
        }
        if (!this.spilled) {
            this.spilled = true;
            this.file = await (0,promises_.open)(this.path, 'w');
            const held = this.chunks;
            this.chunks = [];
            let offset = 0;
            for (const bytes of held) {
                await this.writeAll(bytes, offset);
                offset += bytes.length;
            }
        }
        await this.writeAll(chunk, at);
    }
    async writeAll(bytes, position) {
        let done = 0;
        while (done < bytes.length)
            done += (await this.file.write(bytes, done, bytes.length - done, position + done)).bytesWritten;
    }
    /** The bytes in [start, end), in chunks of at most 256 KiB (fresh buffers from the file: the caller may keep them). */
    async *range(start, end) {
        if (start < 0 || end > this.written || start > end)
            throw new RangeError(`spill: [${start}, ${end}) is outside the ${this.written} bytes written`);
        if (!this.spilled) {
            let offset = 0;
            for (const chunk of this.chunks) {
                const from = Math.max(start, offset);
                const to = Math.min(end, offset + chunk.length);
                if (from < to)
                    yield chunk.subarray(from - offset, to - offset);
                offset += chunk.length;
                if (offset >= end)
                    return;
            }
            return;
        }
        if (start === end)
            return;
        const relief = new GarbageRelief();
        const file = await (0,promises_.open)(this.path, 'r');
        try {
            for (let at = start; at < end;) {
                const buffer = Buffer.allocUnsafe(Math.min(READ_CHUNK, end - at));
                let filled = 0;
                while (filled < buffer.length) {
                    const { bytesRead } = await file.read(buffer, filled, buffer.length - filled, at + filled);
                    if (bytesRead === 0)
                        throw new Error(`spill: the temporary file ended at ${at + filled} of ${end} bytes`);
                    filled += bytesRead;
                }
                at += filled;
                relief.produce(filled);
                yield buffer;
            }
        }
        finally {
            await file.close().catch(() => undefined);
        }
    }
    /** Frees the memory (the caller deletes the file's directory). */
    release() {
        this.chunks = [];
        return this.closeFile().catch(() => undefined);
    }
}

;// CONCATENATED MODULE: ./src/archive/walk.ts
// Lists a directory tree as tar entries, lazily and in a reproducible order.




/** Names sorted by their UTF-8 bytes, so the order does not depend on the locale or the file system. */
function sortByBytes(names) {
    return names
        .map((name) => ({ name, bytes: Buffer.from(name, 'utf8') }))
        .sort((a, b) => Buffer.compare(a.bytes, b.bytes))
        .map((item) => item.name);
}
/** A name's bytes as text: printable ASCII as it is, every other byte as \\xNN. */
function escapeBytes(bytes) {
    return [...bytes].map((b) => (b >= 0x20 && b < 0x7f && b !== 0x5c ? String.fromCharCode(b) : `\\x${b.toString(16).padStart(2, '0')}`)).join('');
}
/**
 * A name that is not valid UTF-8 is refused rather than packed as raw bytes: the tar's PAX names are
 * UTF-8 by definition, and the Java platform would open the file under another name, or not at all.
 */
function notUtf8(prefix, bytes) {
    return new errors/* InputError */.dz(`distribution: the name of '${prefix}${escapeBytes(bytes)}' is not valid UTF-8 (the bytes that are not are shown as \\xNN), ` +
        'so it cannot be packed under its own name. Rename it to a UTF-8 name (e.g. `convmv -f latin1 -t utf-8 --notest <name>`, ' +
        'or regenerate it with a UTF-8 locale such as `LANG=C.UTF-8`), or delete it if it is not needed.');
}
/** The system's code of a failure (EACCES, ...), else its message. */
function why(err) {
    return (0,errors/* systemErrorCode */.vq)(err) ?? (0,errors/* describeError */.Uc)(err);
}
/**
 * Yields the CONTENTS of root (not root itself) depth-first: each directory (name ending in '/')
 * before its children, children in byte order of their names. Regular files, directories and
 * symlinks (kept as links) are listed; sockets, FIFOs and devices are skipped (reported to onSkipped).
 */
async function* walkDirectory(root, options = {}) {
    const walk = {
        options,
        exclude: options.exclude ?? [],
        excludePaths: (options.excludePaths ?? []).map((p) => external_node_path_default().resolve(p)),
        windows: (options.platform ?? process.platform) === 'win32',
        links: new LinkTracker('the directory being packed')
    };
    yield* walkFolder(walk, root, '');
    // A symlink may lead outside through one listed after it (a -> b/.., then b -> .): checked once all are known.
    const late = walk.links.finish();
    if (late)
        throw outside(late.name, late.target, late.problem.why);
}
/** A symlink that leads outside the tree: refused, with what to do instead. */
function outside(rel, target, why) {
    return new errors/* InputError */.dz(`distribution: the symlink '${rel}' -> '${target}' ${why}; packed as a link, it would lead outside the installation directory ` +
        'on the platform (to nothing, or to files that are not yours). Replace the link by the file or directory it points to ' +
        '(copy it into the distribution), or make it point inside the distribution with a relative target (e.g. `lib/current -> ../lib-1.2`).');
}
/** One directory's entries, each directory followed by its own, depth-first. */
async function* walkFolder(walk, dir, prefix) {
    for (const name of await listNames(dir, prefix)) {
        const full = external_node_path_default().join(dir, name);
        const rel = prefix + name;
        const st = await lstatWhilePacking(full, rel);
        if (leftOut(walk, full, st))
            continue;
        const mtime = Math.floor(st.mtimeMs / 1000);
        if (st.isDirectory()) {
            yield { type: 'directory', name: `${rel}/`, mode: walk.windows ? 0o755 : st.mode & 0o7777, mtime };
            yield* walkFolder(walk, full, `${rel}/`);
        }
        else if (st.isFile()) {
            // Windows has no execute bit: make shell scripts executable so bin/*.sh still run on the platform.
            const mode = walk.windows ? (name.endsWith('.sh') ? 0o755 : 0o644) : st.mode & 0o7777;
            yield { type: 'file', name: rel, mode, mtime, size: st.size, sourcePath: full, listedMtimeMs: st.mtimeMs };
        }
        else if (st.isSymbolicLink()) {
            yield await symlinkEntry(walk, full, rel, st, mtime);
        }
        // Sockets, FIFOs and devices: nothing to deploy, left out (the caller says so).
        else {
            const kind = st.isFIFO() ? 'a FIFO' : st.isSocket() ? 'a socket' : st.isCharacterDevice() ? 'a character device' : 'a block device';
            walk.options.onSkipped?.(rel, kind);
        }
    }
}
/** A directory's names, in byte order; a name that is not UTF-8 is refused (notUtf8). */
async function listNames(dir, prefix) {
    let raw;
    try {
        raw = await (0,promises_.readdir)(dir, { encoding: 'buffer' });
    }
    catch (err) {
        throw new errors/* InputError */.dz(`distribution: cannot list the directory '${prefix || '.'}' (${why(err)}). ` +
            'Make sure the user running the action can read every directory of the distribution.');
    }
    const names = raw.map((bytes) => {
        const name = bytes.toString('utf8');
        if (!Buffer.from(name, 'utf8').equals(bytes))
            throw notUtf8(prefix, bytes);
        return name;
    });
    return sortByBytes(names);
}
/** An entry's lstat; a name listed a moment ago that is gone now means something changes the tree while it is packed. */
async function lstatWhilePacking(full, rel) {
    try {
        return await (0,promises_.lstat)(full);
    }
    catch (err) {
        throw new errors/* InputError */.dz(`distribution: '${rel}' could not be read while packing (${why(err)}). ` +
            'Make sure no other step or process changes the distribution directory while this action runs.');
    }
}
/** Whether the entry is one the caller left out: by device and inode, or by its path (without case on Windows). */
function leftOut(walk, full, st) {
    if (walk.exclude.some((e) => e.dev === st.dev && e.ino === st.ino && e.ino !== 0))
        return true;
    const samePath = (a, b) => (walk.windows ? a.toLowerCase() === b.toLowerCase() : a === b);
    return walk.excludePaths.some((p) => samePath(external_node_path_default().resolve(full), p));
}
/** A symlink kept as a link, its target checked against the tree (LinkTracker) as far as the links known so far tell. */
async function symlinkEntry(walk, full, rel, st, mtime) {
    let target;
    try {
        target = await (0,promises_.readlink)(full);
    }
    catch (err) {
        throw new errors/* InputError */.dz(`distribution: cannot read the symlink '${rel}' (${why(err)}).`);
    }
    if (walk.windows)
        target = target.replace(/\\/g, '/');
    const problem = walk.links.entry(rel, 'symlink', target);
    if (problem)
        throw outside(rel, target, problem.why);
    return { type: 'symlink', name: rel, mode: walk.windows ? 0o777 : st.mode & 0o7777, mtime, linkname: target };
}

;// CONCATENATED MODULE: ./src/archive/plan.ts
// Packs a directory into a gzip-compressed tar whose every byte is known before the first is sent.
//
// The tree is walked and its tar stream written once: tar headers and compressible content are
// deflated on every core (parallel-gzip.ts, raw deflate) into the spill; a file whose content is
// already compressed (classify.ts) is not read at all here, only noted as a stored piece, and its
// bytes are read when the archive is sent (packed-archive.ts). The stored pieces' length follows from
// the files' sizes, so the archive's exact length is known once the deflated parts are done: the
// upload sends a Content-Length and streams while the stored files are read.
// Deterministic: the walk's order, the block cuts and the trial depend only on the tree's bytes.












/**
 * Packs a directory up to the point where its archive's exact size is known (`fileName` is the name the
 * upload gives it); the archive's bytes are then read from the result as often as asked.
 */
async function plan_planDirectory(sourceDir, fileName, options) {
    const source = external_node_path_default().resolve(sourceDir);
    await checkSource(source, sourceDir, options);
    const level = options.level ?? 6; // 0-9; another is a RangeError from the compressor (the inputs module validates it)
    const shown = options.input ?? sourceDir;
    let archive = await planOnce(source, fileName, options, level, true);
    if (options.maxBytes !== undefined && archive.size > options.maxBytes && archive.composition.storedFiles > 0 && level > 0) {
        // Stored blocks cost 0-5% over deflating those files again: worth a second pass near the limit.
        await archive.release();
        archive = await planOnce(source, fileName, options, level, false);
    }
    if (options.maxBytes !== undefined) {
        try {
            checkSizeLimit(`distribution: the archive packed from '${shown}'`, archive.size, options.maxBytes);
        }
        catch (error) {
            await archive.release();
            throw error;
        }
    }
    return archive;
}
async function checkSource(source, sourceDir, options) {
    let sourceStat;
    try {
        sourceStat = await (0,promises_.stat)(source);
    }
    catch {
        throw new errors/* InputError */.dz(`distribution: the directory '${sourceDir}' to pack does not exist. Point \`distribution\` at the directory that holds the distribution's contents (or at a .tar.gz), and run the build step first.`);
    }
    if (!sourceStat.isDirectory()) {
        throw new errors/* InputError */.dz(`distribution: '${sourceDir}' is not a directory, so it cannot be packed. Point \`distribution\` at a directory or at a .tar.gz file.`);
    }
    const left = new Set([options.spillPath, ...(options.excludePaths ?? [])].map((p) => external_node_path_default().resolve(p)));
    const names = (await (0,promises_.readdir)(source)).filter((name) => !left.has(external_node_path_default().join(source, name)));
    if (names.length === 0) {
        throw new errors/* InputError */.dz(`distribution: the directory '${sourceDir}' is empty; there is nothing to deploy. Point \`distribution\` at the directory your build filled, or at its .tar.gz.`);
    }
}
/** One pass over the tree; `storeCompressed` false deflates everything (the size limit's second pass). */
async function planOnce(source, fileName, options, level, storeCompressed) {
    const shown = options.input ?? source;
    const spill = new Spill(options.spillPath, options.spillMemory);
    const gzip = createParallelGzip({ level, raw: true });
    const trials = new Trials();
    const planner = new Planner(gzip, level === 0 ? 'all' : storeCompressed ? 'compressed' : 'none', trials);
    const skipped = [];
    const topLevel = new TopLevel();
    let entries = 0;
    const walking = walkDirectory(source, {
        exclude: options.exclude ?? [],
        excludePaths: [options.spillPath, ...(options.excludePaths ?? [])],
        onSkipped: (name, kind) => void skipped.push(`'${name}' (${kind})`)
    });
    const listed = (async function* () {
        for await (const entry of walking) {
            entries++;
            topLevel.add(entry.name);
            yield entry;
        }
    })();
    // The trials of the next files run while this one is packed: each waits on its reads of the samples.
    const ahead = planner.store === 'compressed' ? trials.ahead(listed, LOOK_AHEAD) : listed;
    let bytesIn = 0;
    const onProgress = options.onProgress;
    const onData = onProgress && ((n) => onProgress((bytesIn += n)));
    const writing = (0,external_node_stream_promises_.pipeline)(gzip, spill);
    const producing = writeTar(ahead, planner, { onData }).then(async () => {
        await planner.finish();
        gzip.end();
    }, (err) => {
        gzip.destroy(err); // the pipeline then fails with this error
        throw err;
    });
    const [produced, piped] = await Promise.allSettled([producing, writing]);
    try {
        // A failure downstream (a full disk) destroys the compressor, which then fails the writer too: the pipeline's error is the cause.
        if (piped.status === 'rejected')
            throw diskFull(piped.reason, options.spillPath);
        if (produced.status === 'rejected')
            throw produced.reason;
        if (entries === 0) {
            throw new errors/* InputError */.dz(`distribution: the directory '${shown}' holds no files, directories or symlinks to pack; there is nothing to deploy.`);
        }
    }
    catch (error) {
        await spill.release();
        throw error;
    }
    return new PackedArchive({ fileName, level, pieces: planner.pieces(spill.length), spill, entries, warnings: warningsOf(shown, skipped, topLevel.folder) });
}
/** Entries listed ahead of the packer, at most: their trials run meanwhile. */
const LOOK_AHEAD = 8;
/** The trials (classify.ts) of files listed ahead of the one being packed. */
class Trials {
    started = new Map();
    /** The entries, each yielded once up to `depth` after it were listed and their trials started. */
    async *ahead(entries, depth) {
        const queue = [];
        const source = entries[Symbol.asyncIterator]();
        let done = false;
        for (;;) {
            while (!done && queue.length < depth) {
                const next = await source.next();
                if (next.done === true)
                    done = true;
                else {
                    queue.push(next.value);
                    this.start(next.value);
                }
            }
            const entry = queue.shift();
            if (entry === undefined)
                return;
            yield entry;
        }
    }
    /** How many of the file's first bytes are stored as they are: the trial started ahead, or one now. */
    verdict(entry) {
        const started = this.started.get(entry);
        this.started.delete(entry);
        return started ?? storedPrefix(entry.sourcePath, entry.size, entry.name);
    }
    start(entry) {
        if (entry.type !== 'file' || entry.size === 0)
            return;
        const trial = storedPrefix(entry.sourcePath, entry.size, entry.name);
        trial.catch(() => undefined); // its error is thrown when the packer reaches the file
        this.started.set(entry, trial);
    }
}
/** The tar sink of a plan: bytes to the compressor, already-compressed files taken as stored pieces. */
class Planner {
    gzip;
    store;
    trials;
    list = [];
    runStart = 0;
    constructor(gzip, store, trials) {
        this.gzip = gzip;
        this.store = store;
        this.trials = trials;
    }
    write(bytes) {
        return this.gzip.writeBytes(bytes);
    }
    reserve() {
        return this.gzip.reserve();
    }
    commit(bytes) {
        this.gzip.commit(bytes);
    }
    async takeFile(entry) {
        if (this.store === 'none')
            return 0;
        const length = this.store === 'all' ? entry.size : await this.trials.verdict(entry);
        if (length === 0)
            return 0;
        await this.endRun();
        this.list.push({ kind: 'stored', name: entry.name, path: entry.sourcePath, length, fileSize: entry.size, mtimeMs: entry.listedMtimeMs });
        return length;
    }
    /** Ends the last run before the compressor's final block, so its CRC is known like the others'. */
    finish() {
        return this.endRun();
    }
    /** The pieces, once the compressor's output is all in the spill (`end` bytes): the final block closes the last run. */
    pieces(end) {
        const pieces = this.list.filter((p) => p !== undefined);
        if (pieces.length !== this.list.length)
            throw new Error('packing: a run of deflated output was never told where it ends');
        pieces.push({ kind: 'deflated', start: this.runStart, end, crc: 0, inputLength: 0 });
        return pieces;
    }
    /** Cuts the deflated run here; its place in the list is kept until the compressor says where it ends. */
    async endRun() {
        const slot = this.list.length;
        this.list.push(undefined);
        await this.gzip.cut((run) => {
            this.list[slot] = { kind: 'deflated', start: this.runStart, end: run.outputEnd, crc: run.crc, inputLength: run.inputLength };
            this.runStart = run.outputEnd;
        });
    }
}
function diskFull(error, spillPath) {
    if (error.code !== 'ENOSPC')
        return error;
    return new errors/* InputError */.dz(`distribution: the disk ran out of space while packing into '${external_node_path_default().dirname(spillPath)}'. Free some space on the runner (or set RUNNER_TEMP to a larger disk) and run again.`);
}
function warningsOf(shown, skipped, folder) {
    const warnings = [];
    if (skipped.length > 0) {
        const more = skipped.length > 5 ? ` and ${skipped.length - 5} more` : '';
        warnings.push(`distribution: left out of the archive what cannot be deployed from '${shown}': ${skipped.slice(0, 5).join(', ')}${more}; ` +
            'only files, directories and symlinks are packed.');
    }
    if (folder !== undefined) {
        warnings.push(`distribution: everything in '${shown}' sits under one folder '${folder}/', but a brXM distribution unpacks at its root ` +
            `(webapps/, shared/, conf/, bin/), so the platform would find '${folder}/webapps/...' instead of 'webapps/...'. ` +
            `Point \`distribution\` at '${external_node_path_default().posix.join(shown.replace(/\\/g, '/'), folder)}' instead.`);
    }
    return warnings;
}

;// CONCATENATED MODULE: ./src/archive/pack.ts
// A directory packed into a .tar.gz file on disk: the plan (plan.ts) read once into the file. The
// action never writes the archive whole (it sends the plan as it reads it); this is for whoever wants
// the file: the tests that unpack it with other readers, and the benchmark's check.






async function packDirectory(sourceDir, outFile, options = {}) {
    const target = path.resolve(outFile);
    await mkdir(path.dirname(target), { recursive: true });
    const spillPath = `${target}.spill`;
    const handle = await open(target, 'w');
    try {
        const own = await handle.stat();
        const archive = await planDirectory(sourceDir, path.basename(target), {
            spillPath,
            exclude: [{ dev: own.dev, ino: own.ino }],
            excludePaths: [target],
            ...(options.level !== undefined && { level: options.level }),
            ...(options.maxBytes !== undefined && { maxBytes: options.maxBytes }),
            ...(options.input !== undefined && { input: options.input }),
            ...(options.onProgress !== undefined && { onProgress: options.onProgress })
        });
        try {
            await pipeline(Readable.from(archive.read()), handle.createWriteStream());
        }
        finally {
            await archive.release();
        }
        return { ...(await archive.verified), path: target };
    }
    catch (err) {
        await handle.close().catch(() => undefined);
        await rm(target, { force: true }).catch(() => undefined);
        if (err.code === 'ENOSPC' && !(err instanceof InputError)) {
            throw new InputError(`distribution: the disk ran out of space while writing '${outFile}'. Free some space on the runner (or write the archive to a larger disk) and run again.`);
        }
        throw err;
    }
    finally {
        await rm(spillPath, { force: true }).catch(() => undefined);
    }
}

// EXTERNAL MODULE: external "node:fs"
var external_node_fs_ = __webpack_require__(73024);
;// CONCATENATED MODULE: ./src/archive/bytes.ts
// An archive file's bytes, read from disk each time they are asked for (a retry reads them again).


function fileBytes(path) {
    return async function* () {
        // Each chunk read is garbage once sent; collecting it early (every 5 ms at most, as the packed
        // archive's read does) keeps the upload's memory flat.
        const relief = new GarbageRelief({ interval: 5 });
        for await (const chunk of (0,external_node_fs_.createReadStream)(path, { highWaterMark: 256 * 1024 })) {
            relief.produce(chunk.length);
            yield chunk;
        }
    };
}

;// CONCATENATED MODULE: ./src/archive/index.ts







// EXTERNAL MODULE: ./src/cloud/distribution-name.ts
var distribution_name = __webpack_require__(37103);
;// CONCATENATED MODULE: ./src/distribution.ts
// The distribution to upload, ready on disk: a given archive checked, or a directory packed, under
// the name it will be stored under.








/**
 * The default upload name: where the distribution came from (the run's repository, or the GitLab project, and the commit), so
 * the platform's list tells. The repository's own name is the path's last part (owner/name, group/sub/project); a numeric
 * GitLab project id has none.
 */
async function defaultDistributionName(sourceDir, gitlabProject) {
    const run = port/* runContext */.pO();
    const path = gitlabProject ?? run.repository;
    const repository = /^\d+$/.test(path) ? '' : (path.split('/').at(-1) ?? '');
    return (0,distribution_name/* defaultName */.Z2)(repository, run.sha, (0,external_node_path_.basename)(sourceDir));
}
function workspace() {
    return port/* runContext */.pO().workspace;
}
/** An archive uploaded under its own file name: the same rule as distribution-name. */
function checkOwnName(fileName) {
    const problem = (0,distribution_name/* distributionNameProblem */.xT)(fileName);
    if (problem === undefined)
        return;
    throw new errors/* InputError */.dz(`distribution: the archive's file name '${fileName}' cannot be the name it is stored under: ${problem}. ` +
        'Rename the file, or set distribution-name to the name to store it under (e.g. myproject-1.2.0-distribution.tar.gz).');
}
/** What a packed archive holds as it is and what was deflated, in a few words. */
function composition({ storedFiles, storedBytes, deflatedBytes }) {
    if (storedFiles === 0)
        return `all of the tar (${(0,format/* formatBytes */.z3)(deflatedBytes)}) deflated`;
    const files = storedFiles === 1 ? '1 already-compressed file' : `${storedFiles} already-compressed files`;
    return `${files} (${(0,format/* formatBytes */.z3)(storedBytes)}) stored as ${storedFiles === 1 ? 'it is' : 'they are'}, the rest of the tar (${(0,format/* formatBytes */.z3)(deflatedBytes)}) deflated`;
}
/**
 * The archive to upload. A given archive is checked at its start before this returns, and the rest of
 * the check goes on beside the upload (`verified`), which waits for it before its last bytes. A
 * directory is packed up to the point where its exact size is known (the deflated parts in a new
 * directory added to `cleanup`); its already-compressed files are read as the upload sends them.
 */
async function prepareArchive(inputs, cleanup) {
    const source = await locateDistribution(inputs.distribution, workspace());
    if (source.kind === 'archive') {
        port/* info */.pq(`Checking ${source.path}`);
        const check = startArchiveCheck(source.path, { maxBytes: inputs.maxDistributionBytes });
        const { size } = await check.head;
        const fileName = (0,external_node_path_.basename)(source.path);
        if (inputs.distributionName === undefined)
            checkOwnName(fileName);
        const verified = check.done.then((info) => {
            port/* info */.pq(`${info.fileName}: ${(0,format/* formatBytes */.z3)(info.size)}, ${info.entries} entries, a readable gzip tar, SHA-256 ${info.sha256}`);
            for (const warning of info.warnings ?? [])
                port/* warning */.$e(warning);
            return { ...info, fileName: inputs.distributionName ?? info.fileName };
        });
        verified.catch(() => undefined); // whoever awaits it reports the failure
        return { bytes: fileBytes(check.path), fileName: inputs.distributionName ?? fileName, size, packed: false, verified, hashes: () => verified };
    }
    const name = inputs.distributionName ?? (await defaultDistributionName(source.path, inputs.codeHost.gitlab?.project));
    const dir = await (0,promises_.mkdtemp)((0,external_node_path_.join)(process.env.RUNNER_TEMP || (0,external_node_os_.tmpdir)(), 'brcloud-deploy-'));
    cleanup.push(dir);
    port/* info */.pq(`Packing ${source.path} into ${name}`);
    const archive = await plan_planDirectory(source.path, name, {
        level: inputs.compressionLevel,
        maxBytes: inputs.maxDistributionBytes,
        input: inputs.distribution,
        spillPath: (0,external_node_path_.join)(dir, 'deflated.spill')
    });
    port/* info */.pq(`${name}: ${(0,format/* formatBytes */.z3)(archive.size)} (${archive.size} bytes), ${archive.entries} entries: ${composition(archive.composition)}.`);
    for (const warning of archive.warnings)
        port/* warning */.$e(warning);
    const verified = archive.verified.then((info) => {
        port/* info */.pq(`${name}: SHA-256 ${info.sha256}`);
        return info;
    });
    verified.catch(() => undefined); // whoever awaits it reports the failure
    return { bytes: () => archive.read(), fileName: name, size: archive.size, packed: true, verified, hashes: () => archive.hashes().then(() => verified) };
}

// EXTERNAL MODULE: ./src/github/client.ts
var github_client = __webpack_require__(96584);
// EXTERNAL MODULE: ./src/code-host/open.ts
var code_host_open = __webpack_require__(9112);
// EXTERNAL MODULE: ./src/run-state.ts
var run_state = __webpack_require__(20518);
// EXTERNAL MODULE: ./src/code-host/port.ts
var code_host_port = __webpack_require__(95591);
;// CONCATENATED MODULE: ./src/github/status-description.ts
// A Deployment status's description as GitHub takes it: "The maximum description length is 140 characters" (its REST
// reference). Characters, not UTF-16 units: a cut by units could leave half of an emoji, which is no text at all.
const STATUS_DESCRIPTION_LIMIT = 140;
/** `text` cut to at most 140 characters, never inside one. */
function statusDescription(text) {
    const characters = [...text];
    return characters.length <= STATUS_DESCRIPTION_LIMIT ? text : characters.slice(0, STATUS_DESCRIPTION_LIMIT).join('');
}

;// CONCATENATED MODULE: ./src/code-host/recorded-deployment.ts
// Records a deploy as a deployment of the environment on the code's host (a GitHub Deployment, a GitLab deployment), so
// it shows in the environment's history, with the distribution's id in its payload where the host keeps one: a later run
// reads which commit the environment runs from it (./evidence.ts). Best effort: any failure here is a warning, never a
// failed deploy.






/** What a token needs to record deployments, per host: said only when the host refused it access (an outage or a token it does not take needs other words). */
const WRITE_ADVICE = {
    GitHub: "Give the token 'deployments: write' permission.",
    GitLab: 'Give the token the api scope and at least the Developer role (docs/gitlab.md).'
};
/** A final status is one of the run's closing calls: its own short limit, not ended by the run's stop. */
const FINAL_LIMIT_MS = 5_000;
class RecordedDeployment {
    github;
    id;
    environmentUrl;
    /** A final status was set: the first one stands. */
    final = false;
    constructor(github, id, environmentUrl) {
        this.github = github;
        this.id = id;
        this.environmentUrl = environmentUrl;
    }
    /**
     * Creates the deployment of `ref` (the commit deployed) and marks it in progress; undefined (with a
     * warning) when GitHub refuses.
     */
    static async start(github, environment, description, payload, ref, environmentUrl) {
        try {
            const id = await github.createDeployment(ref, environment, description, payload);
            const deployment = new RecordedDeployment(github, id, environmentUrl);
            // The post step finishes a deployment the main step could not (src/post.ts).
            if (github instanceof github_client.GitHubApi)
                (0,run_state/* noteGitHubDeployment */.v9)(id, github.repo, github.runUrl);
            else
                (0,run_state/* noteGitLabDeployment */.Nw)(id, github.project, github.apiUrl);
            await deployment.set('in_progress', `Deploying to ${environment}`);
            port/* info */.pq(`Recorded as ${github.deploymentNoun} ${id} of environment '${environment}'.`);
            return deployment;
        }
        catch (error) {
            const advice = lacksAccess(error) ? ` ${WRITE_ADVICE[github.host]}` : '';
            port/* warning */.$e(`${(0,errors/* describeError */.Uc)(error)}: the deploy is not recorded as a ${github.deploymentNoun}, and goes on.${advice}`);
            return undefined;
        }
    }
    /** Sets a status; a final one (success, failure, error, canceled) once: the first stands. Never throws. */
    async set(state, description) {
        if (this.final)
            return;
        const closing = state !== 'in_progress';
        if (closing)
            this.final = true;
        // A final status also goes out after a cancel or the watchdog stopped the run, on a door of its own.
        const github = closing ? this.github.closing(FINAL_LIMIT_MS) : this.github;
        try {
            await github.setDeploymentState(this.id, {
                state,
                description: statusDescription(description),
                logUrl: this.github.runUrl,
                environmentUrl: state === 'success' ? this.environmentUrl : undefined
            });
            if (closing)
                (0,run_state/* noteGitHubDeploymentFinal */.B1)();
        }
        catch (error) {
            // The outcome was decided: the post step sets it (on GitLab) if the main step cannot.
            if (state !== 'in_progress')
                (0,run_state/* noteDeploymentFinalWanted */.ps)(state);
            port/* warning */.$e(`Could not set ${this.github.deploymentNoun} ${this.id} to ${state} (${(0,errors/* describeError */.Uc)(error)}).`);
        }
    }
}
/** A refusal a permission, scope or role fixes: 403, or the 404 a host answers for what the token may not see. */
function lacksAccess(error) {
    return error instanceof code_host_port/* CodeHostCallFailed */.dv && (error.failure === 'forbidden' || error.failure === 'not-found');
}

;// CONCATENATED MODULE: ./src/cloud/prune-keep.ts
/** Uploads this recent may be another job's, about to be deployed: never deleted. */
const FRESH_MS = 60 * 60_000;
/** How far the platform's clock may be off from ours, either way: its createdAt is read with this much room. */
const CLOCK_SKEW_MS = 15 * 60_000;
/** The strongest reason wins when several hold: what runs, then what a deploy under way needs, then the rest. */
const RANK = { runs: 0, 'in-progress': 1, requested: 2, previous: 3, ran: 4, 'built-before': 5, fresh: 6 };
/** The distributions to keep, by id in any letter case. */
class Keeps {
    reasons = new Map();
    add(id, reason) {
        if (typeof id !== 'string' || id === '')
            return;
        const key = id.toLowerCase();
        const known = this.reasons.get(key);
        if (known === undefined || RANK[reason.kind] < RANK[known.kind])
            this.reasons.set(key, reason);
    }
    why(id) {
        return this.reasons.get(id.toLowerCase());
    }
}
function createdMs(d) {
    const t = d.createdAt ? Date.parse(d.createdAt) : Number.NaN;
    // Undated records sort first: they are the oldest we can tell of.
    return Number.isNaN(t) ? Number.NEGATIVE_INFINITY : t;
}
/** Oldest first (undated first), then by id: the order pruning deletes in. */
function prune_keep_oldestFirst(distributions) {
    return [...distributions].sort((a, b) => createdMs(a) - createdMs(b) || a.id.localeCompare(b.id));
}
/**
 * The newest distribution stored before `runningId` (by the platform's createdAt; undated ones never count), or
 * undefined, also when the running one is not listed or undated: the platform keeps no history of an environment, so
 * where no record names its previous distribution, this is the likely one.
 */
function builtBefore(distributions, runningId) {
    const running = distributions.find((d) => d.id.toLowerCase() === runningId.toLowerCase());
    if (running === undefined || !Number.isFinite(createdMs(running)))
        return undefined;
    return prune_keep_oldestFirst(distributions)
        .filter((d) => Number.isFinite(createdMs(d)) && createdMs(d) < createdMs(running))
        .at(-1);
}
/** Whether the platform stored it within the last hour before `startedAt`, by its clock read with CLOCK_SKEW_MS of room. */
function isFresh(d, startedAt) {
    return createdMs(d) >= startedAt - FRESH_MS - CLOCK_SKEW_MS;
}
/** The reason in the words of a log line: "kept distribution X: <this>". */
function describeKeep(reason) {
    switch (reason.kind) {
        case 'runs':
            return `environment '${reason.environment}' runs it`;
        case 'ran':
            return `environment '${reason.environment}' ran it earlier in this run: it is that environment's previous distribution, its likely rollback target`;
        case 'previous':
            return `GitHub Deployment ${reason.deployment} records it as what '${reason.environment}' ran before its latest deploy: its likely rollback target`;
        case 'requested':
            return `GitHub Deployment ${reason.deployment} of '${reason.environment}' named it within the last hour: that deploy may still be switching`;
        case 'in-progress':
            return `GitHub Deployment ${reason.deployment} of '${reason.environment}' that names it is still ${reason.state.replace('_', ' ')}`;
        case 'built-before':
            return `the newest one stored before ${reason.runs}, which environment '${reason.environment}' reported running: likely what ran there before it, its rollback target (no record names one)`;
        case 'fresh':
            return "stored within the last hour: it may be another job's upload about to be deployed";
    }
}
const GROUP_OF = {
    runs: 'runs',
    ran: 'previous',
    previous: 'previous',
    'built-before': 'previous',
    requested: 'deploy',
    'in-progress': 'deploy',
    fresh: 'fresh'
};
const GROUP_WORDS = {
    runs: (n) => `${n} ${n === 1 ? 'runs' : 'run'} on an environment`,
    previous: (n) => `${n} ${n === 1 ? 'is the previous distribution' : 'are the previous distributions'} of an environment (a likely rollback target)`,
    deploy: (n) => `${n} ${n === 1 ? 'is' : 'are'} named by a GitHub Deployment in progress or requested within the last hour`,
    fresh: (n) => `${n} ${n === 1 ? 'was' : 'were'} stored within the last hour (another job may be about to deploy ${n === 1 ? 'it' : 'them'})`
};
/** "2 run on an environment, 1 was stored within the last hour": the kept ones counted by reason. */
function countKept(kept) {
    const counts = new Map();
    for (const reason of kept)
        counts.set(GROUP_OF[reason.kind], (counts.get(GROUP_OF[reason.kind]) ?? 0) + 1);
    return ['runs', 'previous', 'deploy', 'fresh'].flatMap((g) => {
        const n = counts.get(g) ?? 0;
        return n === 0 ? [] : [GROUP_WORDS[g](n)];
    });
}

// EXTERNAL MODULE: ./src/cloud/platform-reading.ts
var platform_reading = __webpack_require__(9079);
// EXTERNAL MODULE: ./src/code-host/evidence.ts
var evidence = __webpack_require__(80637);
;// CONCATENATED MODULE: ./src/github/prune-records.ts



/** A Deployment's latest status that says it is not done; GitHub gives a new Deployment no status (pending) until one is set. */
const UNDER_WAY = new Set(['queued', 'in_progress', 'pending']);
/** The newest Deployments naming one distribution whose status is read: an older one still under way is a stale record. */
const STATUS_READS = 5;
/** A Deployment that names a distribution: as what it deploys, or as what ran before it (its rollback target). */
function names(d, id) {
    return (0,platform_reading/* sameId */.s)(d.payload.distributionId, id) || (0,platform_reading/* sameId */.s)(d.payload.previousDistributionId, id);
}
/**
 * What ran before the distribution of record `i`, going back through the records: its payload's previous distribution
 * (older versions of this action wrote none), else the one recorded before it, skipping redeploys of the same one.
 * When the records show the environment back on the same distribution after that one (a rollback, or a deploy the
 * platform abandoned: a payload names what the environment reported at request, which may never have served), or
 * name that one only as a payload's previous, never as deployed there, the one before is kept too.
 */
function ranBefore(here, i) {
    const at = here[i]?.payload.distributionId;
    const found = [];
    let returned = false;
    let oneMore = false;
    for (let j = i; j < here.length; j++) {
        const record = here[j]?.payload;
        for (const [id, named] of [
            [j === i ? undefined : record?.distributionId, 'deployed'],
            [record?.previousDistributionId, 'previous']
        ]) {
            if (id === undefined || found.some((f) => (0,platform_reading/* sameId */.s)(f, id)))
                continue;
            if ((0,platform_reading/* sameId */.s)(id, at)) {
                returned = found.length > 0;
                continue;
            }
            if (found.length > 0 && !returned && !oneMore)
                return found;
            found.push(id);
            if (found.length === 2)
                return found;
            // Named only as a payload's previous, never recorded as deployed here: the environment may have reported it at
            // request and then abandoned it (another deploy came first): the one before it stays too.
            oneMore = named === 'previous' && !here.slice(j + 1).some((d) => (0,platform_reading/* sameId */.s)(d.payload.distributionId, id));
        }
    }
    return found;
}
class PruneRecords {
    now;
    history;
    constructor(github, apiUrl, now = Date.now) {
        this.now = now;
        this.history = new evidence/* DeploymentHistory */.u(github, apiUrl);
    }
    /** This stack's Deployments that name a distribution, newest first, read afresh. Throws when GitHub cannot be read. */
    async read() {
        this.history.refresh();
        return (await this.history.deployments()).filter((d) => d.payload.distributionId !== undefined);
    }
    /** Adds what the records say must stay: each environment's previous distribution, and what a deploy named within the hour. */
    async keep(records, environments, keeps) {
        const since = this.now() - FRESH_MS - CLOCK_SKEW_MS;
        for (const d of records) {
            if (!(Date.parse(d.createdAt ?? '') >= since))
                continue;
            const reason = { kind: 'requested', environment: d.environment, deployment: d.id };
            keeps.add(d.payload.distributionId, reason);
            keeps.add(d.payload.previousDistributionId, reason);
        }
        for (const e of environments)
            await this.previousOf(e, records, keeps);
    }
    /**
     * What environment `e` ran before, by its records: the previous of the Deployment that put its distribution there;
     * when no record names what it reports (deployed outside this action, or no id shown), the latest one recorded, which
     * ran there before, and also what ran before that when it shows no id at all, or when that latest one is not recorded
     * as done (a deploy still waiting on a busy environment, or one that failed, may never have served: fresh seed
     * 410796983, our promotion waiting while another job's unrecorded deploys landed).
     */
    async previousOf(e, records, keeps) {
        const here = records.filter((d) => d.environment === e.name);
        const latest = here[0];
        if (latest === undefined)
            return;
        const reason = (d) => ({ kind: 'previous', environment: e.name, deployment: d.id });
        keeps.add(latest.payload.distributionId, reason(latest));
        const current = e.distributionId ?? undefined;
        const i = current === undefined ? -1 : here.findIndex((d) => (0,platform_reading/* sameId */.s)(d.payload.distributionId, current));
        const at = here[i];
        if (at !== undefined)
            for (const id of ranBefore(here, i))
                keeps.add(id, reason(at));
        else if (current === undefined || current === '' || !(await this.served(latest)))
            for (const id of ranBefore(here, 0))
                keeps.add(id, reason(latest));
    }
    /** Whether a Deployment's latest status says it was done (success); GitHub's failure to answer is thrown (pruning stops). */
    async served(d) {
        return (await this.history.host.latestStatus(d.id))?.state === 'success';
    }
    /**
     * Whether the Deployment that put `runs` on `environment` names, in its payload, what ran there before it (through
     * redeploys of the same one): then that is the environment's previous, and pruning needs no guess by date
     * (./prune.ts, built-before). Not when no record covers what it runs (deployed from Mission Control, or by a job
     * without a token), nor when the record names no previous (an earlier version): the order of records is no proof.
     */
    namesPrevious(records, environment, runs) {
        const here = records.filter((d) => d.environment === environment);
        for (let j = here.findIndex((d) => (0,platform_reading/* sameId */.s)(d.payload.distributionId, runs)); j >= 0 && j < here.length; j++) {
            const payload = here[j]?.payload;
            if (!(0,platform_reading/* sameId */.s)(payload?.distributionId, runs) || payload?.previousDistributionId === undefined)
                return false;
            if (!(0,platform_reading/* sameId */.s)(payload.previousDistributionId, runs))
                return true;
        }
        return false;
    }
    /** The newest Deployment naming `id` that is still under way (its latest status queued, pending or in progress, or none yet). */
    async underWay(records, id) {
        for (const d of records.filter((r) => names(r, id)).slice(0, STATUS_READS)) {
            const status = await this.history.host.latestStatus(d.id);
            const state = status?.state ?? 'pending';
            if (UNDER_WAY.has(state))
                return { kind: 'in-progress', environment: d.environment, deployment: d.id, state };
        }
        return undefined;
    }
}

// EXTERNAL MODULE: ./src/health.ts
var src_health = __webpack_require__(95769);
// EXTERNAL MODULE: ./src/http/transport.ts + 1 modules
var http_transport = __webpack_require__(45848);
// EXTERNAL MODULE: ./src/http/errors.ts
var http_errors = __webpack_require__(58549);
// EXTERNAL MODULE: ./src/http/retry.ts
var retry = __webpack_require__(28902);
;// CONCATENATED MODULE: ./src/deploy/observe.ts
// Looking at the environment: what it reports (the documented distributionId, and a status field when
// the platform gives one, which is never required), and the pace of looking again until a deadline.




/** One environment, looked at by name (the id the platform gave us stays the same). */
class EnvironmentWatch {
    client;
    name;
    options;
    now;
    constructor(client, name, options = {}) {
        this.client = client;
        this.name = name;
        this.options = options;
        this.now = options.now ?? Date.now;
    }
    async look() {
        const { environment } = await this.client.findEnvironment(this.name);
        if (environment === undefined) {
            throw new errors/* ActionError */.lZ(`Environment '${this.name}' is no longer listed by the platform, though it was when this run found it: it was deleted or renamed since.`);
        }
        const look = { distributionId: environment.distributionId ?? undefined, status: environment.status, at: this.now() };
        this.options.seen?.(look);
        return look;
    }
    /**
     * A look while waiting for something: an answer that failed the way a look may fail for a moment (a 5xx,
     * no connection, a token endpoint that failed while renewing the token, after their own attempts) is noted and gives undefined, so the caller looks again later
     * instead of ending its wait on one bad answer. The run's stop, a refusal (401, 404) or a bug still throw.
     */
    async lookAgain() {
        try {
            return await this.look();
        }
        catch (error) {
            if (this.options.signal?.aborted)
                throw error;
            if (!(0,http_errors/* mayPass */.bg)(error))
                throw error;
            this.options.log?.(`Looking at '${this.name}' failed (${(0,errors/* describeError */.Uc)(error)}); looking again later.`);
            return undefined;
        }
    }
    /** A pace of looks that ends at `deadline`, read afresh before each pause. */
    poll(deadline) {
        const options = {
            // Stryker disable next-line MethodExpression,ArithmeticOperator: Poll reads until() first and it is always given here, so timeoutMs is never used
            timeoutMs: Math.max(0, deadline.at - this.now()),
            until: () => deadline.at,
            intervalMs: this.options.intervalMs ?? 1_000,
            maxIntervalMs: this.options.maxIntervalMs ?? 10_000,
            sleep: this.options.sleep,
            now: this.now,
            signal: this.options.signal
        };
        return new retry/* Poll */.sP(options);
    }
    /** "after 3.2 s" since `since`. */
    after(since) {
        return `after ${(0,format/* formatDuration */.a3)(this.now() - since)}`;
    }
}

// EXTERNAL MODULE: ./src/deploy/order.ts
var deploy_order = __webpack_require__(20507);
// EXTERNAL MODULE: ./src/deploy/changes.ts
var deploy_changes = __webpack_require__(43678);
;// CONCATENATED MODULE: ./src/github/deployment-description.ts
// A GitHub Deployment's description: what was deployed where, the override reason when one was given, and the commits
// of the release as far as they fit. GitHub's reference calls it a "Short description of the deployment" and states no
// maximum; the one it states for a deployment status's description is 140 characters, and a Deployment refused as too
// long would lose the record later runs read: it is held to the same 140 characters (characters, never cut inside one).

const DEPLOYMENT_DESCRIPTION_LIMIT = STATUS_DESCRIPTION_LIMIT;
/**
 * "site.tar.gz to acme; override: hotfix; 3 commits: Fix login (#12); Add search; and 1 more", within the limit. The
 * name and target come first, then the override reason (cut with an ellipsis when it alone would not fit), then as
 * many whole commit titles as fit with the count of the rest.
 */
function deploymentDescription(parts, limit = DEPLOYMENT_DESCRIPTION_LIMIT) {
    const head = cut(`${parts.name} to ${parts.target}`, limit);
    const reason = parts.overrideReason?.replace(/\s+/g, ' ').trim();
    const withReason = reason ? cut(`${head}; override: ${reason}`, limit) : head;
    const c = parts.changes;
    if (c === undefined || c.total === 0)
        return withReason;
    const count = `${c.total} commit${c.total === 1 ? '' : 's'}${c.direction === 'removed' ? ' taken out' : ''}`;
    const base = `${withReason}; ${count}`;
    if (deployment_description_length(base) > limit)
        return withReason;
    let text = base;
    let shown = 0;
    for (const commit of c.commits) {
        const title = commit.title.replace(/\s+/g, ' ').trim();
        const next = `${text}${shown === 0 ? ': ' : '; '}${title}`;
        const rest = c.total - shown - 1;
        if (deployment_description_length(rest > 0 ? `${next}; and ${rest} more` : next) > limit)
            break;
        text = next;
        shown++;
    }
    return shown === 0 || shown === c.total ? text : `${text}; and ${c.total - shown} more`;
}
function deployment_description_length(text) {
    return [...text].length;
}
/** At most `max` characters, an ellipsis where it was cut. */
function cut(text, max) {
    const characters = [...text];
    return characters.length <= max ? text : `${characters.slice(0, max - 1).join('')}…`;
}
/** The most commits a Deployment's payload lists: it is read by tools and people, not a changelog. */
const PAYLOAD_COMMITS = 20;
function payloadChanges(c) {
    if (c === undefined || c.total === 0)
        return undefined;
    return {
        direction: c.direction,
        total: c.total,
        commits: c.commits.slice(0, PAYLOAD_COMMITS).map((x) => ({ sha: x.sha, title: x.title, pullRequests: [...x.pullRequests] }))
    };
}

// EXTERNAL MODULE: ./src/deploy/outcome.ts
var outcome = __webpack_require__(84535);
// EXTERNAL MODULE: ./src/http/phase.ts
var phase = __webpack_require__(33331);
;// CONCATENATED MODULE: ./src/rules/backup.ts
/** The environment's newest backup (by createdAt; entries without a readable date are no evidence of age). */
function newestBackup(backups, environmentId) {
    let newest;
    for (const b of backups) {
        if (b.environmentId.toLowerCase() !== environmentId.toLowerCase() || Number.isNaN(b.createdAtMs))
            continue;
        if (newest === undefined || b.createdAtMs > newest.createdAtMs)
            newest = b;
    }
    return newest;
}
/** Hours between two instants, to a tenth; a backup dated ahead of our clock (a skew) is 0 hours old. */
function ageHours(createdAtMs, nowMs) {
    return Math.max(0, Math.round((nowMs - createdAtMs) / 360_000) / 10);
}
/** The rule's judgement: passed when the newest backup is younger than `requiredHours` (exactly that old is too old). */
function judgeBackup(backups, environmentId, requiredHours, nowMs) {
    const newest = newestBackup(backups, environmentId);
    if (newest === undefined)
        return { requiredHours, passed: false };
    const exactHours = (nowMs - newest.createdAtMs) / 3_600_000;
    return {
        requiredHours,
        id: newest.id,
        createdAt: newest.createdAt,
        ageHours: ageHours(newest.createdAtMs, nowMs),
        passed: exactHours < requiredHours
    };
}
/** The finding in words: which backup, how old, against what. */
function describeBackup(f, environment) {
    if (f.id === undefined)
        return `the stack lists no backup of '${environment}'`;
    return `the newest backup of '${environment}' is ${f.id}, taken ${f.createdAt ?? '?'} (${f.ageHours ?? '?'} hours ago)`;
}

// EXTERNAL MODULE: ./src/rules/freeze.ts + 3 modules
var freeze = __webpack_require__(99108);
// EXTERNAL MODULE: ./src/rules/record.ts
var record = __webpack_require__(84658);
;// CONCATENATED MODULE: ./src/rules/soak.ts

/** The newest Deployments of the upstream environment read: older ones cannot change a clock the newer ones reset. */
const SOAK_DEPLOYMENTS_READ = 30;
const same = (a, b) => a !== undefined && a.toLowerCase() === b.toLowerCase();
const FAILED = new Set(['failure', 'error']);
/** The statuses of `deployments` as one timeline, oldest first; statuses without a time are no evidence of when. */
function soakTimeline(deployments, statuses) {
    const events = [];
    for (const d of deployments) {
        for (const s of statuses.get(d.id) ?? []) {
            const atMs = s.createdAt === undefined ? Number.NaN : Date.parse(s.createdAt);
            if (Number.isNaN(atMs))
                continue;
            events.push({
                atMs,
                deploymentId: d.id,
                distributionId: d.payload.distributionId,
                previousDistributionId: d.payload.previousDistributionId,
                state: s.state
            });
        }
    }
    return events.sort((a, b) => a.atMs - b.atMs || a.deploymentId - b.deploymentId);
}
/**
 * What the timeline says of `distributionId`: its open verified period (to now), the longest completed one (-1: none
 * counts), and the last reset. A failure or error there after it was verified restarts the clock: the periods before it
 * no longer count, and a new one opens at once only when the environment runs ours again (a rollback to it).
 */
function periods(events, distributionId) {
    let open;
    let longestMs = -1;
    let reset;
    let verifiedEver = false;
    for (const e of events) {
        const ours = same(e.distributionId, distributionId);
        if (e.state === 'success' && ours) {
            verifiedEver = true;
            open ??= { sinceMs: e.atMs, deploymentId: e.deploymentId };
        }
        else if (e.state === 'success' && open !== undefined) {
            // Replaced by another release in good order: a completed soak, which counts.
            longestMs = Math.max(longestMs, e.atMs - open.sinceMs);
            open = undefined;
        }
        else if (FAILED.has(e.state) && verifiedEver) {
            reset = e;
            longestMs = -1;
            open = !ours && same(e.previousDistributionId, distributionId) ? { sinceMs: e.atMs, deploymentId: e.deploymentId } : undefined;
        }
    }
    return { ...(open && { open }), longestMs, ...(reset && { reset }), verifiedEver };
}
const iso = (ms) => new Date(ms).toISOString();
const minutes = (ms) => Math.floor(ms / 60_000);
/** The gate's judgement of `distributionId` in `environment` at `nowMs`, with the evidence and, when refused, when it would pass. */
function judgeSoak(events, distributionId, environment, requiredMinutes, nowMs) {
    const { open, longestMs, reset, verifiedEver } = periods(events, distributionId);
    const requiredMs = requiredMinutes * 60_000;
    const base = { environment, requiredMinutes };
    if (open !== undefined && nowMs - open.sinceMs >= requiredMs)
        return { ...base, passed: true, verifiedSince: iso(open.sinceMs), soakedMinutes: minutes(nowMs - open.sinceMs), deploymentId: open.deploymentId };
    if (longestMs >= 0 && longestMs >= requiredMs)
        return {
            ...base,
            passed: true,
            soakedMinutes: minutes(longestMs),
            why: `verified in '${environment}' for ${minutes(longestMs)} minute(s) before it was replaced there`
        };
    if (open !== undefined) {
        const allowedAt = iso(open.sinceMs + requiredMs);
        const since = reset !== undefined && reset.atMs === open.sinceMs ? ` (the clock restarted at the failure of GitHub Deployment ${reset.deploymentId})` : '';
        return {
            ...base,
            passed: false,
            verifiedSince: iso(open.sinceMs),
            soakedMinutes: minutes(nowMs - open.sinceMs),
            allowedAt,
            deploymentId: open.deploymentId,
            why: `${distributionId} has been verified in '${environment}' since ${iso(open.sinceMs)}${since}: ${minutes(nowMs - open.sinceMs)} of the ${requiredMinutes} minute(s) required; it is allowed from ${allowedAt}`
        };
    }
    if (verifiedEver && reset !== undefined)
        return {
            ...base,
            passed: false,
            why: `${distributionId} was verified in '${environment}', but GitHub Deployment ${reset.deploymentId} ${reset.state === 'error' ? 'ended in an error' : 'failed'} there at ${iso(reset.atMs)} and '${environment}' has not run it verified since: deploy it there again and let it soak`
        };
    if (verifiedEver)
        return {
            ...base,
            passed: false,
            soakedMinutes: minutes(Math.max(0, longestMs)),
            why: `${distributionId} was verified in '${environment}' for only ${minutes(longestMs)} minute(s) before it was replaced there, less than the ${requiredMinutes} required: deploy it there again and let it soak`
        };
    return {
        ...base,
        passed: false,
        why: `no GitHub Deployment of this repository shows ${distributionId} verified (success) in '${environment}': deploy it there first, then promote it`
    };
}
/** Reads the upstream environment's Deployments of this stack (the newest SOAK_DEPLOYMENTS_READ) and their statuses, then judges. */
async function checkSoak(github, apiUrl, distributionId, gate, nowMs) {
    const deployments = (await new evidence/* DeploymentHistory */.u(github, apiUrl).deployments(gate.environment)).slice(0, SOAK_DEPLOYMENTS_READ);
    const statuses = new Map();
    for (const d of deployments)
        statuses.set(d.id, await github.listStatuses(d.id));
    return judgeSoak(soakTimeline(deployments, statuses), distributionId, gate.environment, gate.minutes, nowMs());
}
/** The finding in one line for the log. */
function describeSoak(f) {
    if (!f.passed)
        return f.why ?? 'not verified';
    const from = f.deploymentId === undefined ? '' : ` (GitHub Deployment ${f.deploymentId})`;
    return f.verifiedSince !== undefined
        ? `verified in '${f.environment}' since ${f.verifiedSince}${from}: ${f.soakedMinutes ?? 0} minute(s), ${f.requiredMinutes} required`
        : (f.why ?? `verified in '${f.environment}'`);
}

;// CONCATENATED MODULE: ./src/rules/gate.ts
// The release rules applied (docs/release-rules.md): a freeze window (before any change, and again right before the
// deploy request), the soak gate of a promotion and the backup rule (before any change). A rule that would refuse
// either refuses (RuleRefused: nothing of the environment changed) or, with override-reason, is overridden on the
// record. Every finding is kept in the result's RulesRecord, which the summary, the Deployment and the events read.






/** A rule refused the deploy. Nothing of the environment was changed. */
class RuleRefused extends errors/* ActionError */.lZ {
    rule;
    name = 'RuleRefused';
    constructor(rule, message) {
        super(message);
        this.rule = rule;
    }
}
/** How far ahead a freeze window is announced: a wait for a busy environment may cross into it. */
const AHEAD_MS = 60 * 60_000;
const OVERRIDE_HINT = 'or set override-reason to say why this deploy cannot wait (the reason is recorded in the GitHub Deployment, the summary and every event)';
/** On GitLab: a deployment there has no description (docs/gitlab.md), so the reason is kept where it can be. */
const OVERRIDE_HINT_GITLAB = 'or set override-reason to say why this deploy cannot wait (the reason is recorded in the summary and every event)';
class ReleaseGate {
    o;
    constructor(o) {
        this.o = o;
        if (o.rules.overrideReason !== undefined)
            o.record.override = { reason: o.rules.overrideReason, overrode: [] };
    }
    /** How a refusal says override-reason may be given, and where the reason is then recorded. */
    get hint() {
        return this.o.gitlab === true ? OVERRIDE_HINT_GITLAB : OVERRIDE_HINT;
    }
    /**
     * The freeze windows at this moment. `at` 'start': before any change; 'request': right before the deploy request,
     * after the waits (what `uploaded` names stays on the stack).
     */
    freeze(at, uploaded) {
        const windows = this.o.rules.freeze;
        if (windows.length === 0)
            return;
        const now = new Date(this.o.now());
        const hit = (0,freeze/* freezeAt */.NT)(windows, now);
        if (hit === undefined) {
            if (at === 'start')
                this.announceAhead(now);
            return;
        }
        this.o.record.freeze = {
            window: hit.window.line,
            line: hit.window.lineNumber,
            since: hit.since.toISOString(),
            endsAt: hit.endsAt.toISOString(),
            until: (0,freeze/* formatInZone */.FL)(hit.endsAt, hit.window.timeZone),
            at
        };
        const env = `'${this.o.environment}'`;
        const when = at === 'start' ? `${env} is in a deploy freeze` : `a deploy freeze of ${env} began while this run waited`;
        const what = `${when}: ${(0,freeze/* describeUntil */.Gy)(hit)}`;
        const nothing = at === 'start' ? 'so nothing was changed' : `so ${uploaded ?? 'the distribution'} was not deployed (it stays on the stack)`;
        this.refuseOrOverride('freeze', what, `${nothing}. Deploy once it ends, ${this.hint}.`);
    }
    /** The soak gate of a promotion: GitHub's records of the upstream environment. A GitHub that cannot be read proves nothing: refused. */
    async soak(github, apiUrl, distributionId) {
        const gate = this.o.rules.soak;
        if (gate === undefined)
            return;
        let finding;
        try {
            if (github === undefined)
                throw new code_host_port/* CodeHostCallFailed */.dv('Reading GitHub Deployments', undefined, 'github-token is not set', 'failed');
            finding = await checkSoak(github, apiUrl, distributionId, gate, this.o.now);
        }
        catch (error) {
            if (!(error instanceof code_host_port/* CodeHostCallFailed */.dv) || this.o.signal?.aborted)
                throw error;
            const why = `GitHub's Deployments of '${gate.environment}' could not be read (${(0,errors/* describeError */.Uc)(error)})`;
            this.o.record.soak = { environment: gate.environment, requiredMinutes: gate.minutes, passed: false, why };
            this.refuseOrOverride('soak', `the soak gate cannot be checked: ${why}`, `so nothing was changed. Run again once GitHub answers, ${this.hint}.`);
            return;
        }
        this.o.record.soak = finding;
        if (finding.passed)
            return this.o.log(`Soak gate: ${distributionId} ${describeSoak(finding)}.`);
        const wait = finding.allowedAt === undefined ? '' : `Run again from ${finding.allowedAt}, `;
        this.refuseOrOverride('soak', `the soak gate (require-verified-in: ${gate.environment}, require-soak-minutes: ${gate.minutes}): ${describeSoak(finding)}`, `so nothing was changed. ${wait}${wait === '' ? this.hint.replace(/^or s/, 'S') : this.hint}.`);
    }
    /** The backup rule: the environment's newest backup, from the stack's listing. A listing that fails proves nothing: refused. */
    async backup(client, environmentId) {
        const hours = this.o.rules.backupHours;
        if (hours === undefined)
            return;
        const env = this.o.environment;
        let backups;
        try {
            backups = await client.listBackups();
        }
        catch (error) {
            // Any failure of the listing (an answer refused, no answer in time) proves no backup; the run's stop is the stop's,
            // and a token the stack no longer takes (401, a refused login) is the login's failure, not the rule's. A ready
            // access-token is not renewed: its refusal names no call, so it is said to be the listing's (fresh seed 512337726).
            if (error instanceof errors/* TokenNotRenewed */.Ns)
                throw new errors/* TokenNotRenewed */.Ns(`Listing backups failed: ${error.message}`);
            if (this.o.signal?.aborted || !(error instanceof Error) || (0,errors/* refusesLogin */.LG)(error) || (error instanceof errors/* ServiceError */._7 && error.status === 401))
                throw error;
            const why = (0,errors/* describeError */.Uc)(error);
            this.o.record.backup = { requiredHours: hours, passed: false, listingFailed: why };
            this.refuseOrOverride('backup', `require-backup-hours: ${hours}: the backups of '${env}' could not be listed (${why})`, `so nothing was changed. Run again once the stack answers, ${this.hint}.`);
            return;
        }
        const finding = judgeBackup(backups, environmentId, hours, this.o.now());
        this.o.record.backup = finding;
        const found = describeBackup(finding, env);
        if (finding.passed)
            return this.o.log(`Backup: ${found}, within require-backup-hours: ${hours}.`);
        const why = finding.id === undefined ? found : `${found}, not younger than ${hours} hours`;
        this.refuseOrOverride('backup', `require-backup-hours: ${hours}: ${why}`, `so nothing was changed. Take a backup of '${env}' in Mission Control first, ${this.hint}.`);
    }
    /** Refuses (RuleRefused), or with override-reason notes the rule as overridden and goes on. */
    refuseOrOverride(rule, what, then) {
        const override = this.o.record.override;
        if (override !== undefined) {
            if (!override.overrode.includes(rule))
                override.overrode.push(rule);
            this.o.caution(`override-reason overrides ${record/* RULE_WORDS */.x[rule]}: ${what}. Reason given: "${override.reason}".`);
            return;
        }
        this.o.record.refusedBy = rule;
        const would = this.o.dryRun ? 'A deploy would be refused' : 'Refused';
        throw new RuleRefused(rule, `${would}: ${what}, ${then}`);
    }
    announceAhead(now) {
        const ahead = (0,freeze/* freezeAhead */.ro)(this.o.rules.freeze, now, AHEAD_MS);
        if (ahead === undefined)
            return;
        const tz = ahead.window.timeZone;
        this.o.log(`A deploy freeze begins at ${(0,freeze/* formatInZone */.FL)(ahead.startsAt, tz)} ('${ahead.window.line}', line ${ahead.window.lineNumber}): a deploy request after it is refused.`);
    }
}

// EXTERNAL MODULE: ./src/deploy/look.ts
var deploy_look = __webpack_require__(89392);
// EXTERNAL MODULE: ./src/deploy/release-state.ts
var release_state = __webpack_require__(80350);
;// CONCATENATED MODULE: ./src/deploy/switch.ts
// Asking the platform for one switch of the environment (our release, or a rollback) and following it.
// A request is never replayed blindly: after a lost answer or a 409 the environment is looked at first,
// so exactly one deploy lands; following takes only evidence that fits both platform readings (the new
// id reported when the deploy is requested, or when it is done).





/** Another deploy made the environment run something that is neither ours nor what it ran before. */
class Replaced extends errors/* ActionError */.lZ {
    look;
    name = 'Replaced';
    constructor(message, look) {
        super(message);
        this.look = look;
    }
}
/** The environment was busy, or the switch did not show, within the time allowed. */
class NotApplied extends errors/* ActionError */.lZ {
    busy;
    name = 'NotApplied';
    constructor(message, busy) {
        super(message);
        this.busy = busy;
    }
}
/** The request was not sent, on purpose: the reason says why (a rollback that would undo someone else's deploy). */
class NotSent extends errors/* ActionError */.lZ {
    name = 'NotSent';
}
/** Before any call of ours could have landed, the environment settled on this very distribution: another deploy put it there. */
class AlreadyRuns extends errors/* ActionError */.lZ {
    look;
    name = 'AlreadyRuns';
    constructor(environment, look) {
        super(`'${environment}' ${(0,deploy_look/* describeLook */.F)(look)}: another deploy put this distribution there while this run waited, so nothing was sent`);
        this.look = look;
    }
}
/** A request went out, and neither its answer nor any look settled whether the platform carried it out. */
class Unconfirmed extends errors/* ActionError */.lZ {
    name = 'Unconfirmed';
}
/** Time for one deploy call: the request limit, never past the deadline (at least 1 s, so a call can be made at all). */
function callLimit(ctx, deadline) {
    return Math.max(1_000, Math.min(ctx.requestTimeoutMs, deadline.at - ctx.watch.now()));
}
async function attempt(ctx, plan, deadline, hooks) {
    let dispatched = false;
    try {
        // The last call made counts: a 401 answered (not carried out) and replayed with a new token is dispatched anew.
        const onDispatch = (event) => void (dispatched = event === 'sent');
        await ctx.client.requestDeploy(ctx.environmentId, plan.distributionId, ctx.strategy, ctx.configFileIds, callLimit(ctx, deadline), onDispatch, ctx.beforeRequest);
        return { kind: 'sent' };
    }
    catch (error) {
        if (error instanceof errors/* ServiceError */._7 && error.status === 409)
            return { kind: 'busy', error };
        // Any other refusal (4xx) was not carried out.
        if (error instanceof errors/* ServiceError */._7 && error.status < 500)
            throw error;
        // Never handed to the connection: it was not sent, whatever the error says (the run's stop, a token renewal that failed).
        if (!dispatched || neverReached(error)) {
            if (ctx.signal?.aborted || !(0,http_errors/* mayPass */.bg)(error))
                throw error;
            return { kind: 'unsent', error };
        }
        // A 5xx, no answer, or the run stopped mid-call: it may have been carried out.
        hooks.unconfirmed(`the deploy call of ${plan.distributionId} got no usable answer (${code(error)}): it may have been carried out`);
        if (ctx.signal?.aborted)
            throw error;
        return { kind: 'unknown', error };
    }
}
/**
 * A connection failure that happens before a request is written: it never reached the platform. The code is read from
 * the error itself, not through networkFailure: ENOTFOUND is no failure worth another attempt, yet it never reached the
 * platform. The list stays inside the function: a module-level constant's mutants cannot be told apart per test.
 */
function neverReached(error) {
    const failure = (0,errors/* systemErrorCode */.vq)(error);
    return failure !== undefined && ['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'ENETUNREACH', 'EHOSTUNREACH', 'UND_ERR_CONNECT_TIMEOUT'].includes(failure);
}
/**
 * The environment shows our deploy was carried out: it reports our id. Never for a redeploy: in the reading
 * that reports the id when done, someone else's deploy in progress shows our id (what ran before) switching
 * too, so after a lost answer a redeploy stays unconfirmed.
 */
function showsOurs(look, plan) {
    return !plan.redeploy && (0,platform_reading/* sameId */.s)(look.distributionId, plan.distributionId);
}
function code(error) {
    return error instanceof errors/* ServiceError */._7 && error.errorCode ? `HTTP ${error.status} ${error.errorCode}` : (0,errors/* describeError */.Uc)(error);
}
function stayedBusy(ctx, plan, look, last) {
    // Every call failed before it was sent (the token could not be renewed): that failure is the cause.
    if (last.kind === 'unsent')
        return last.error instanceof Error ? last.error : new Error(String(last.error));
    return new NotApplied(`'${ctx.watch.name}' stayed busy with another deploy for the whole deploy-timeout-minutes; it ${said(look)}. ` +
        `${plan.distributionId} was not deployed. Run again once that deploy is done, or raise deploy-timeout-minutes.`, true);
}
function unknownOutcome(ctx, plan, look, why) {
    return new Unconfirmed(`The deploy of ${plan.distributionId} to '${ctx.watch.name}' may have been carried out: ${why}, and '${ctx.watch.name}' ${said(look)}, ` +
        `which does not tell. It was not sent again, so it is never deployed twice. Look at the environment in the console before running again.`);
}
function said(look) {
    return look === undefined ? 'could not be looked at' : (0,deploy_look/* describeLook */.F)(look);
}
/**
 * Sends the deploy until the platform accepts it or shows it carried it out ('adopted'). After a 409 (a
 * deploy in progress) it looks, waits while a deploy is going on, and sends again. A call that may have
 * reached the platform (no answer, a 5xx, a connection lost mid-call) is never sent again: it is followed
 * until the environment shows ours (adopted) or the time is up (Unconfirmed), since no look can show it was
 * not carried out. Only a call that never reached the platform (not handed to the connection, a refused
 * connection) is sent again. The environment showing our distribution adopts it only after a call of ours
 * that may have landed: after a refusal (409) it is someone else's deploy of it, never taken as ours.
 */
async function requestSwitch(ctx, plan, deadline, hooks) {
    const poll = ctx.watch.poll(deadline);
    /** Calls that never reached the platform (not handed to the connection, or refused before it was written). */
    let unsent = 0;
    for (;;) {
        const outcome = await attempt(ctx, plan, deadline, hooks);
        if (outcome.kind === 'sent')
            return 'sent';
        if (outcome.kind === 'unsent') {
            if (++unsent >= ctx.maxAttempts)
                throw outcome.error;
            ctx.warn(`The deploy call of ${plan.distributionId} could not be sent (${code(outcome.error)}); trying again.`);
        }
        let look = await ctx.watch.lookAgain();
        // A call that may have reached the platform is never sent again: no look can tell that it was not carried out
        // (ours may have landed and been replaced by a deploy of what ran before, between two looks); it is followed.
        // A replay below only ever follows a 409 or a call that was never sent.
        if (outcome.kind === 'unknown')
            return await awaitOurs(ctx, plan, poll, outcome.error, look);
        if (outcome.kind === 'busy' && plan.giveUpWhenBusy !== undefined) {
            throw new NotSent(`the platform answered ${code(outcome.error)}: ${plan.giveUpWhenBusy}; '${ctx.watch.name}' ${said(look)}`);
        }
        if (outcome.kind === 'busy') {
            await hooks.waiting(look ?? noLook(ctx), `the platform answered ${code(outcome.error)}: a deploy is in progress on '${ctx.watch.name}', which ${said(look)}`);
        }
        // Wait, and look again right before a replay; while a deploy is going on, keep waiting.
        do {
            if (!(await poll.next()))
                throw stayedBusy(ctx, plan, look, outcome);
            look = await ctx.watch.lookAgain();
        } while (look === undefined || busy(look, plan));
        const refusal = plan.refuse?.(look);
        if (refusal !== undefined)
            throw new Replaced(refusal, look);
        // Settled on ours with nothing of ours possibly landed: another deploy put it there while we waited
        // (showsOurs is never true for a redeploy).
        if (plan.refuse === undefined && showsOurs(look, plan))
            throw new AlreadyRuns(ctx.watch.name, look);
        await gate(ctx, plan, look, deadline);
        if (!(0,platform_reading/* sameId */.s)(look.distributionId, plan.distributionId))
            plan.previous = look.distributionId;
    }
}
/** The deploy order's check before a replay; the time it took with GitHub is not the platform's, so the deadline moves by it. */
async function gate(ctx, plan, look, deadline) {
    if (plan.gate === undefined)
        return;
    const before = ctx.watch.now();
    try {
        await plan.gate(look);
    }
    finally {
        deadline.at += ctx.watch.now() - before;
    }
}
/**
 * The environment shows a deploy going on: a status in progress, or no id at all where it reported one
 * before (a platform may show none mid-switch). A replay waits while it does: the deploy may be ours.
 */
function busy(look, plan) {
    return (0,platform_reading/* switching */.Z)(look.status) === true || (look.distributionId === undefined && plan.previous !== undefined);
}
/** A look that could not be made, for the waiting hook. */
function noLook(ctx) {
    return { distributionId: undefined, status: undefined, at: ctx.watch.now() };
}
/**
 * After a call that may have been carried out and must not be sent again: looks until the environment
 * shows ours ('adopted'). A status that says no deploy is going on, while it reports something else and
 * nothing was seen in progress since the call, shows it was not carried out (the call's own error is
 * thrown). Settling on something else after a deploy was seen in progress, or the deadline, leaves it
 * unknown (Unconfirmed): ours may have landed and been replaced between two looks.
 */
async function awaitOurs(ctx, plan, poll, error, first) {
    const why = `the deploy call got ${code(error)}`;
    let sawBusy = false;
    let look = first;
    for (;;) {
        if (look !== undefined && showsOurs(look, plan))
            return 'adopted';
        if (look !== undefined && busy(look, plan))
            sawBusy = true;
        else if (look !== undefined) {
            const settled = (0,platform_reading/* switching */.Z)(look.status) === false;
            const third = look.distributionId !== undefined && !(0,platform_reading/* sameId */.s)(look.distributionId, plan.previous);
            // A redeploy that ended looks the same as one never made; another id, or a deploy seen ending, may have followed ours.
            if (plan.redeploy)
                throw unknownOutcome(ctx, plan, look, `${why}, and a redeploy that ended looks the same as one never made`);
            if (third || (settled && sawBusy))
                throw unknownOutcome(ctx, plan, look, `${why}, and another deploy may have followed it`);
            // Most likely not carried out; but a deploy of ours and then one of what ran before, both between two looks,
            // would look the same: said so, and never sent again.
            if (settled) {
                throw new Unconfirmed(`The deploy call of ${plan.distributionId} got no usable answer (${(0,errors/* describeError */.Uc)(error)}), and '${ctx.watch.name}' ${(0,deploy_look/* describeLook */.F)(look)}, with no deploy going on and none seen since the call: ` +
                    `it was most likely not carried out. It was not sent again (a call that may have reached the platform never is). Look at the environment in the console, then run again.`);
            }
            // No status: what ran before, or nothing, is all a deploy in progress shows. Look again.
        }
        if (!(await poll.next()))
            throw unknownOutcome(ctx, plan, look, why);
        look = await ctx.watch.lookAgain();
    }
}
/** Waits while the status field says a deploy is in progress; at once without a status field (a 409 tells then). */
async function waitWhileBusy(ctx, deadline, hooks) {
    const poll = ctx.watch.poll(deadline);
    let look = await ctx.watch.lookAgain();
    while (look === undefined || (0,platform_reading/* switching */.Z)(look.status) === true) {
        if (look !== undefined)
            await hooks.waiting(look, `'${ctx.watch.name}' ${(0,deploy_look/* describeLook */.F)(look)}: a deploy is in progress`);
        if (!(await poll.next())) {
            throw new NotApplied(`'${ctx.watch.name}' was still busy with a deploy when deploy-timeout-minutes ran out; it ${said(look)}.`, true);
        }
        look = await ctx.watch.lookAgain();
    }
    return look;
}
/** Looks in a row, a pause apart, that say a deploy is over without ours before following ends (one could be a moment before the platform shows its deploy). */
const SETTLED_WITHOUT_OURS = 2;
/**
 * Follows a requested switch until the environment shows it done. Resolves to 'switch' when the switch
 * was seen (the id went from the previous one to ours, or a status from in progress to settled), or to
 * 'not-observed' when ours was reported from the first look on, or after no id at all, with nothing to tell
 * more (the platform may report the id at request: no proof that it serves). Throws Replaced (a third id), or NotApplied.
 * A look that fails, or an environment that reports no id, shows nothing either way: it looks again.
 */
async function followSwitch(ctx, plan, deadline, hooks) {
    const poll = ctx.watch.poll(deadline);
    const began = ctx.watch.now();
    const seen = { previous: false, switching: false, none: false, settledWithout: 0 };
    // Stryker disable next-line StringLiteral: what it is compared with always begins with a quote, so any other start value differs too
    let last = '';
    let look;
    for (;;) {
        look = await ctx.watch.lookAgain();
        if (look !== undefined) {
            const done = settledOn(ctx, plan, look, seen, began);
            if (done !== undefined)
                return done;
            const what = `'${ctx.watch.name}' ${(0,deploy_look/* describeLook */.F)(look)}`;
            if (what !== last)
                hooks.inProgress(`${what}; waiting for ${plan.distributionId} (${(0,format/* formatDuration */.a3)(ctx.watch.now() - began)} so far)`);
            last = what;
        }
        if (!(await poll.next())) {
            throw new NotApplied(`The switch of '${ctx.watch.name}' to ${plan.distributionId} was not seen within deploy-timeout-minutes (${(0,format/* formatDuration */.a3)(Math.max(0, deadline.at - began))}): it ${look === undefined ? 'could not be looked at' : `still ${(0,deploy_look/* describeLook */.F)(look)}`}.`, false);
        }
    }
}
/** One look while following: the switch done (with how it was seen), in progress (undefined), or replaced (throws). */
function settledOn(ctx, plan, look, seen, began) {
    const what = `'${ctx.watch.name}' ${(0,deploy_look/* describeLook */.F)(look)}`;
    const ours = (0,platform_reading/* sameId */.s)(look.distributionId, plan.distributionId);
    if (ours && (0,platform_reading/* switching */.Z)(look.status) !== true) {
        if (!seen.previous && !seen.switching) {
            const since = seen.none ? `${ctx.watch.after(began)}, after reporting no distribution (what a restarted platform reports too)` : 'from the first look on';
            return { by: 'not-observed', look, evidence: `${what} ${since}` };
        }
        const before = seen.previous ? `after reporting ${plan.previous}` : 'after its status said the deploy was in progress';
        return { by: 'switch', look, evidence: `${what} ${ctx.watch.after(began)}, ${before}` };
    }
    const absent = look.distributionId === undefined;
    // No id is never "what ran before": it shows no switch either way (see Seen.none).
    const wasBefore = !absent && (0,platform_reading/* sameId */.s)(look.distributionId, plan.previous);
    if (!absent && !ours && !wasBefore) {
        throw new Replaced(`${what}: neither ${plan.distributionId} nor what it reported before (${plan.previous ?? 'none'}). Another deploy replaced this one.`, look);
    }
    // A status that says no deploy is going on, without ours: the platform ran nothing (it forgot the deploy: a restart, the
    // distribution gone), or went back after a switch was seen. Twice in a row, it ends following; waiting cannot help.
    const settled = (0,platform_reading/* switching */.Z)(look.status) === false && (absent || (wasBefore && seen.switching));
    seen.settledWithout = settled ? seen.settledWithout + 1 : 0;
    if (seen.settledWithout >= SETTLED_WITHOUT_OURS) {
        const why = absent
            ? `it runs nothing and no deploy is going on: the platform no longer has this deploy (it may have restarted, or the distribution was deleted)`
            : `its deploy ended without switching to ${plan.distributionId}`;
        throw new NotApplied(`'${ctx.watch.name}' ${(0,deploy_look/* describeLook */.F)(look)}: ${why}. Look at the environment in the console, then run again.`, false);
    }
    // Ours while switching, what ran before, or no id at all (some platforms may show none mid-switch): in progress.
    seen.previous ||= wasBefore && !ours;
    seen.switching ||= (0,platform_reading/* switching */.Z)(look.status) === true;
    seen.none ||= absent;
    return undefined;
}

;// CONCATENATED MODULE: ./src/deploy/release.ts
// The release's life: wait for a busy environment, request the deploy (reconciled, never replayed
// blindly), follow it, check the site, run the caller's verification, and roll back only what is ours.
// Every step enters a state of the ReleaseRecord with its evidence (./release-state.ts).









function fail(release, kind, message) {
    release.failure = { kind, message };
    (0,release_state/* enter */.Ve)(release, 'failed', message);
    return new errors/* ActionError */.lZ(message);
}
function replaced(release, error) {
    (0,release_state/* enter */.Ve)(release, 'replaced', error.message, error.look.at);
    return error;
}
/** Notes each wait for a busy environment (the first one as a state, the rest in the log), and a request whose outcome is unknown. */
function requestHooks(ctx, release) {
    return {
        waiting: async (look, why) => {
            if (release.state !== 'planned')
                return ctx.log(`${why}; waiting for it to finish before deploying ${release.distributionId}.`);
            // The first wait names who holds the environment, when anything tells.
            const holder = await ctx.order?.holder(look);
            (0,release_state/* enter */.Ve)(release, 'waiting', `${why}; waiting for it to finish before deploying ${release.distributionId}.${holder ? ` ${holder}.` : ''}`);
        },
        unconfirmed: (evidence) => {
            // Stryker disable next-line ConditionalExpression: called at most once per request (a call that may have landed is never sent again), while planned or waiting
            if (release.state === 'planned' || release.state === 'waiting')
                (0,release_state/* enter */.Ve)(release, 'unconfirmed', evidence);
            else
                ctx.log(evidence);
        }
    };
}
/** Waits for a busy environment, then requests the deploy. Throws when it stayed busy (nothing of ours was sent). */
async function request(ctx, release, plan, deadline) {
    const hooks = requestHooks(ctx, release);
    return ctx.phase(`Deploy to '${release.environment}'`, async () => {
        try {
            const look = await waitWhileBusy(ctx, deadline, hooks);
            // The order's check with GitHub is not the platform's time: the deadline moves by what it took.
            const before = ctx.watch.now();
            try {
                await ctx.order?.recheck(look);
            }
            finally {
                deadline.at += ctx.watch.now() - before;
            }
            // Another deploy put this very distribution there while we waited: nothing to send.
            if (!release.redeploy && (0,platform_reading/* sameId */.s)(look.distributionId, release.distributionId))
                throw new AlreadyRuns(release.environment, look);
            if (!release.redeploy)
                plan.previous = look.distributionId;
            const how = await requestSwitch(ctx, plan, deadline, hooks);
            release.previous = plan.previous;
            release.adopted = how === 'adopted';
            (0,release_state/* enter */.Ve)(release, 'requested', how === 'sent'
                ? `the platform accepted the deploy of ${release.distributionId} (strategy ${ctx.strategy})`
                : `the deploy call's answer was lost, but '${release.environment}' showed it had been carried out: adopted, not sent again`);
            return undefined;
        }
        catch (error) {
            if (error instanceof AlreadyRuns) {
                (0,release_state/* enter */.Ve)(release, 'already-running', error.message, error.look.at);
                return undefined;
            }
            if (error instanceof deploy_order/* OrderRefused */.tM)
                throw fail(release, 'older', error.message);
            if (error instanceof RuleRefused)
                throw fail(release, 'rule', error.message);
            if (error instanceof NotApplied)
                throw fail(release, 'busy', error.message);
            // It may still land: a rollback (when asked) waits for it within its own budget.
            if (error instanceof Unconfirmed) {
                release.previous = plan.previous;
                return fail(release, 'unconfirmed', error.message);
            }
            if (error instanceof Replaced)
                throw replaced(release, error);
            throw error;
        }
    });
}
/** Follows the switch; resolves to a failure when it was not seen in time. */
async function follow(ctx, release, plan, deadline) {
    const inProgress = (evidence) => (release.state === 'requested' ? (0,release_state/* enter */.Ve)(release, 'in-progress', evidence) : ctx.log(evidence));
    try {
        const seen = await ctx.phase(`Wait until '${release.environment}' runs ${release.distributionId}`, () => followSwitch(ctx, plan, deadline, { inProgress }));
        release.appliedBy = seen.by;
        if (seen.by === 'switch')
            (0,release_state/* enter */.Ve)(release, 'applied', seen.evidence);
        else
            (0,release_state/* enter */.Ve)(release, 'reported', `${seen.evidence}: the platform may report a new id as soon as a deploy is requested, so this does not show that the new release serves`);
        return undefined;
    }
    catch (error) {
        if (error instanceof NotApplied)
            return fail(release, 'not-applied', error.message);
        if (error instanceof Replaced)
            throw replaced(release, error);
        throw error;
    }
}
/** The site check: with health-expect it shows the new release serves; without, only that the site answers. */
async function checkSite(ctx, release, health) {
    try {
        await ctx.phase(`Health check ${health.shown}`, () => ctx.checkSite(health));
    }
    catch (error) {
        if (error instanceof src_health/* HealthCheckFailed */.yK)
            return fail(release, 'unhealthy', error.message);
        throw error;
    }
    if (health.expect === undefined) {
        release.site = 'answers';
        (0,release_state/* enter */.Ve)(release, 'healthy', `${health.shown} answered 2xx; without health-expect this cannot tell the new release from the old one`);
        return undefined;
    }
    release.site = 'marker';
    // A redeploy's marker is the old release's too: it shows what serves, not that the restart happened.
    if (release.appliedBy !== 'switch' && !release.redeploy) {
        release.appliedBy = 'marker';
        (0,release_state/* enter */.Ve)(release, 'applied', `${health.shown} answers with '${health.expect}', the new release's marker`);
    }
    (0,release_state/* enter */.Ve)(release, 'healthy', `${health.shown} answered 2xx with '${health.expect}'`);
    return undefined;
}
/**
 * Deploys our release and checks it. Resolves to the failure a rollback may answer (a call that may have been
 * carried out, not applied in time, unhealthy, search), or undefined when every check passed and a look after
 * them showed ours still running. Throws when another deploy replaced ours or the environment stayed busy:
 * nothing of ours to roll back then.
 */
async function deployRelease(ctx, release, verify) {
    const deadline = { at: ctx.watch.now() + ctx.deployTimeoutMs };
    const order = ctx.order;
    const plan = {
        distributionId: release.distributionId,
        previous: release.previous,
        redeploy: release.redeploy,
        // Before a replay after a wait (a 409), as before the first request: the order again. The rules' last word is
        // the client's, right before each deploy call goes out (ctx.beforeRequest, in requestSwitch's attempt).
        gate: order ? (look) => order.recheck(look) : undefined
    };
    const unconfirmed = await (0,phase/* withinPhase */.Db)(deadline, () => request(ctx, release, plan, deadline));
    if (unconfirmed)
        return unconfirmed;
    // Nothing of ours was sent: the caller checks the site and search as for any run that deploys nothing.
    if (release.state === 'already-running')
        return undefined;
    const notApplied = ctx.followDeploy ? await (0,phase/* withinPhase */.Db)(deadline, () => follow(ctx, release, plan, deadline)) : undefined;
    if (notApplied)
        return notApplied;
    const unhealthy = ctx.health ? await checkSite(ctx, release, ctx.health) : undefined;
    if (unhealthy)
        return unhealthy;
    const why = verify ? await verify() : undefined;
    if (why !== undefined)
        return fail(release, 'search', why);
    if (release.appliedBy === 'switch' || release.appliedBy === 'marker')
        return release_confirm(ctx, release, verify !== undefined);
    return undefined;
}
/**
 * The checks passed; a look after them decides whether that says anything of ours: still ours, settled, is
 * verified; another distribution means another deploy replaced ours meanwhile (the checks' answers may have
 * been its); a look that cannot be made leaves the release unverified, and says so.
 */
async function release_confirm(ctx, release, searched) {
    const deadline = { at: ctx.watch.now() + CONFIRM_MS };
    const look = await (0,phase/* withinPhase */.Db)(deadline, async () => {
        const poll = ctx.watch.poll(deadline);
        for (;;) {
            const seen = await ctx.watch.lookAgain();
            if (seen !== undefined || !(await poll.next()))
                return seen;
        }
    });
    if (look === undefined) {
        release.unconfirmedAfterChecks = `the checks passed, but '${release.environment}' could not be looked at after them, so it was not seen still running ${release.distributionId}`;
        ctx.log(`Not verified: ${release.unconfirmedAfterChecks}.`);
        return undefined;
    }
    if ((0,platform_reading/* sameId */.s)(look.distributionId, release.distributionId) && (0,platform_reading/* switching */.Z)(look.status) !== true) {
        (0,release_state/* enter */.Ve)(release, 'verified', `${verifiedBy(release, searched)}; '${release.environment}' ${(0,deploy_look/* describeLook */.F)(look)} after the checks`);
        return undefined;
    }
    if ((0,platform_reading/* sameId */.s)(look.distributionId, release.distributionId)) {
        release.unconfirmedAfterChecks = `the checks passed, but '${release.environment}' ${(0,deploy_look/* describeLook */.F)(look)} after them: ours, switching again, not seen settled`;
        ctx.log(`Not verified: ${release.unconfirmedAfterChecks}.`);
        return undefined;
    }
    // Nothing runs now (a platform that restarted, say): ours does not serve, and no other deploy is known.
    if (look.distributionId === undefined) {
        return fail(release, 'not-applied', `The checks passed, but then '${release.environment}' ${(0,deploy_look/* describeLook */.F)(look)}: ${release.distributionId} no longer runs (the platform may have restarted, or the distribution was deleted).`);
    }
    throw replaced(release, new Replaced(`'${release.environment}' ${(0,deploy_look/* describeLook */.F)(look)} after the checks passed: not ${release.distributionId} settled, so another deploy replaced it meanwhile, and the checks may have answered for that one.`, look));
}
/** How long the look after the checks may take (it is tried again after a failed look). */
const CONFIRM_MS = 30_000;
function verifiedBy(release, searched) {
    const applied = release.appliedBy === 'marker' ? 'the site answers with the new release marker' : 'the platform reported the switch';
    const site = release.site === 'marker' ? ', the site answers with the marker' : release.site === 'answers' ? ', the site answers' : '';
    return `${applied}${release.appliedBy === 'marker' ? '' : site}${searched ? ', the search check passed' : ''}`;
}
/**
 * Deploys the previous distribution back, only while the environment still runs (or switches to) ours:
 * a deploy still in progress is waited for first, another deploy that replaced ours is never undone. When
 * ours may still land (its call got no usable answer, or its switch was not seen in time), the rollback waits
 * for it within its own budget and rolls it back once it lands. Records each state; throws Replaced, or the
 * rollback's own failure. The release rules' check before a deploy call is not made for it.
 */
async function rollBack(releaseContext, release) {
    // No release rule holds a rollback: it undoes this run's own release (a freeze exists to keep production stable).
    const ctx = { ...releaseContext, beforeRequest: undefined };
    const to = release.previous;
    if (to === undefined || (0,platform_reading/* sameId */.s)(to, release.distributionId))
        return;
    release.rollbackTo = to;
    await ctx.phase(`Roll back '${release.environment}' to ${to}`, async () => {
        const waiting = (_l, why) => ctx.log(`${why}; waiting for it to finish before rolling back.`);
        // Whether ours may still land: its deploy call got no usable answer, or its switch was not seen in time.
        const mayLand = release.failure?.kind === 'unconfirmed' || release.failure?.kind === 'not-applied';
        const look = await lookBeforeRollback(ctx, release, mayLand, waiting);
        if (nothingToUndo(ctx, release, to, look, mayLand))
            return;
        await switchBack(ctx, release, to, look, waiting);
    });
}
/** The look a rollback decides on: once ours landed (or its time ran out), or once a deploy in progress finished. */
async function lookBeforeRollback(ctx, release, mayLand, waiting) {
    // The deploy in progress gets deploy-timeout-minutes of its own (the watchdog's budget counts it).
    const inProgress = { at: ctx.watch.now() + ctx.deployTimeoutMs };
    return (0,phase/* withinPhase */.Db)(inProgress, () => (mayLand ? awaitLanding(ctx, release, inProgress) : waitWhileBusy(ctx, inProgress, { waiting })));
}
/**
 * Whether the environment no longer runs ours, so there is nothing this run may undo (recorded and logged); throws
 * Replaced when another distribution replaced it.
 */
function nothingToUndo(ctx, release, to, look, mayLand) {
    const notOurs = stillOurs(release, to)(look);
    if (notOurs === undefined)
        return false;
    if (another(look, release)) {
        throw replaced(release, new Replaced(notOurs, look));
    }
    // Ours never landed and nothing is in progress, or nothing tells what runs: there is nothing this run may undo.
    const why = look.distributionId === undefined
        ? 'it names no distribution'
        : (0,platform_reading/* sameId */.s)(look.distributionId, release.distributionId)
            ? `${release.distributionId} was still switching when deploy-timeout-minutes ran out; it may still land`
            : mayLand && (0,platform_reading/* switching */.Z)(look.status) !== false
                ? `it still reports the previous distribution, so ${release.distributionId} was not seen running within deploy-timeout-minutes; it may still land`
                : `it still reports the previous distribution, so ${release.distributionId} was not seen running`;
    release.rollbackNotSent = `'${release.environment}' ${(0,deploy_look/* describeLook */.F)(look)}: ${why}, and a rollback is sent only over this run's own release`;
    ctx.log(`${release.rollbackNotSent}.`);
    return true;
}
/** The rollback's switch to `to`: requested (never over another deploy), followed, and the site checked once it was seen. */
async function switchBack(ctx, release, to, look, waiting) {
    // The rollback's own switch gets deploy-timeout-minutes of its own, after any wait for a deploy in progress.
    const deadline = { at: ctx.watch.now() + ctx.deployTimeoutMs };
    // Ours was seen settled: a deploy in progress now (a 409) is someone else's, and it replaces ours.
    const giveUpWhenBusy = 'another deploy is in progress, which will replace this release; this run never undoes another deploy';
    const plan = { distributionId: to, previous: look.distributionId, redeploy: false, refuse: stillOurs(release, to), giveUpWhenBusy };
    const hooks = { waiting, unconfirmed: (evidence) => (release.rollbackUnconfirmed = evidence) };
    let how;
    try {
        how = await (0,phase/* withinPhase */.Db)(deadline, () => requestSwitch(ctx, plan, deadline, hooks));
    }
    catch (error) {
        if (!(error instanceof NotSent))
            throw error;
        release.rollbackRefused = error.message;
        ctx.log(`No rollback: ${error.message}.`);
        return;
    }
    release.rollbackUnconfirmed = undefined; // answered, or seen carried out
    (0,release_state/* enter */.Ve)(release, 'rollback-requested', `${how === 'sent' ? 'the platform accepted' : 'after a lost answer, the environment showed'} the deploy of ${to}`);
    const seen = await (0,phase/* withinPhase */.Db)(deadline, () => followSwitch(ctx, plan, deadline, { inProgress: ctx.log }));
    // The id alone may be reported at request, before the old release serves again: applied only when the switch was seen.
    if (seen.by !== 'switch') {
        release.rollbackNotSeen = `${seen.evidence}: the platform may report an id as soon as a deploy is requested, so the switch back was not seen`;
        ctx.log(`Rollback: ${release.rollbackNotSeen}.`);
        return;
    }
    (0,release_state/* enter */.Ve)(release, 'rollback-applied', seen.evidence);
    if (ctx.health) {
        await ctx.checkSite({ ...ctx.health, expect: undefined });
        (0,release_state/* enter */.Ve)(release, 'rollback-healthy', `${ctx.health.shown} answered 2xx (the old release's answer; health-expect belongs to the new one)`);
    }
}
/**
 * Ours may still land (a call without a usable answer, a switch not seen in time): looks until the environment
 * shows it settled, another distribution, or (with a status field) no deploy going on; the last look when the
 * time is up. A failed look is no evidence: it looks again.
 */
async function awaitLanding(ctx, release, deadline) {
    const poll = ctx.watch.poll(deadline);
    let last;
    for (;;) {
        const look = await ctx.watch.lookAgain();
        if (look !== undefined) {
            const ours = (0,platform_reading/* sameId */.s)(look.distributionId, release.distributionId);
            const busy = (0,platform_reading/* switching */.Z)(look.status);
            if (ours && busy !== true)
                return look;
            const third = another(look, release);
            // A status that says no deploy is going on: ours is not coming (or another one replaced it).
            if (third || busy === false)
                return look;
            // Said once: the wait can take the whole budget, and the log should tell why the step is quiet.
            if (last === undefined)
                ctx.log(`'${release.environment}' ${(0,deploy_look/* describeLook */.F)(look)}: ${release.distributionId} may still land; waiting for it before rolling back.`);
            last = look;
        }
        if (!(await poll.next()))
            return last ?? { distributionId: undefined, status: undefined, at: ctx.watch.now() };
    }
}
/**
 * The rule a rollback is sent by, on the look right before every request: the environment must still run
 * our release, settled. Anything else is someone else's deploy, or ours never landed:
 * the reason not to send, or undefined to send. `to`: what the rollback goes back to (what ran before ours).
 */
function stillOurs(release, to) {
    return (look) => {
        if ((0,platform_reading/* sameId */.s)(look.distributionId, release.distributionId) && (0,platform_reading/* switching */.Z)(look.status) !== true)
            return undefined;
        const not = another(look, release) ? `neither ${release.distributionId} nor ${to}` : `not ${release.distributionId} settled`;
        return `'${release.environment}' ${(0,deploy_look/* describeLook */.F)(look)}: ${not}, and a rollback is sent only over this run's own release. This run never undoes another deploy.`;
    };
}
/** Another deploy's distribution: neither ours nor what ran before (a look that names none is not one). */
function another(look, release) {
    return look.distributionId !== undefined && !(0,platform_reading/* sameId */.s)(look.distributionId, release.distributionId) && !(0,platform_reading/* sameId */.s)(look.distributionId, release.previous);
}
/**
 * Records a rollback that stopped part-way (the phase's error), unless a state already tells it. A rollback the
 * platform accepted and that was then not seen (the environment could not be looked at, or not in time) did not
 * fail: it may land, so it stays requested, with why it was not seen applied.
 */
function rollbackFailed(release, error) {
    // rollbackTo is set before the rollback's first step: without it, none was attempted.
    if (release.rollbackTo === undefined || !ROLLING_BACK.includes(release.state))
        return;
    const why = error instanceof Error ? error.message : String(error);
    if (release.state === 'rollback-requested') {
        release.rollbackNotSeen ??= `it was not seen applied: ${why}`;
        return;
    }
    (0,release_state/* enter */.Ve)(release, 'rollback-failed', why);
}
/** Notes how far a rollback came when the run was stopped (watchdog, cancel) during it; returns the stop to rethrow. */
function rollbackStopped(release, stop) {
    const why = `the run was stopped (${stop instanceof Error ? stop.name : 'stop'}) before the switch back was seen`;
    if ((0,release_state/* reached */.V6)(release, 'rollback-requested'))
        release.rollbackNotSeen ??= why;
    else if (release.rollbackUnconfirmed === undefined)
        release.rollbackNotSent ??= 'the run was stopped (watchdog or cancel) before a rollback could be sent';
    return stop;
}
/** The states a rollback can stop in part-way. */
const ROLLING_BACK = ['failed', 'rollback-requested', 'rollback-applied'];

// EXTERNAL MODULE: ./src/deploy/result.ts
var deploy_result = __webpack_require__(14730);
;// CONCATENATED MODULE: ./src/cloud/prune.ts
// Deleting old distributions so that, after one more upload, at most `max` remain (max-distributions), oldest
// first, never one that must stay (./prune-keep.ts): what an environment runs or ran earlier in this run, what
// GitHub's records name as an environment's previous distribution or as the target of a deploy under way or asked
// for within the hour, where no record names an environment's previous the newest one stored before what it runs,
// a fresh upload. Before each delete, GitHub's records are read again and the environments looked at again. The
// only warning is the one that says the stack could not be kept within `max`, and why.




/** The oldest distributions that may go, so that at most max-1 remain; `why` says which must stay. Pure. */
function planPruning(distributions, max, why) {
    let excess = distributions.length - (max - 1);
    const plan = { toDelete: [], kept: [], shortBy: 0 };
    for (const d of oldestFirst(distributions)) {
        if (excess <= 0)
            break;
        const reason = why(d);
        if (reason !== undefined)
            plan.kept.push({ distribution: d, reason });
        else {
            plan.toDelete.push(d);
            excess--;
        }
    }
    plan.shortBy = Math.max(0, excess);
    return plan;
}
/**
 * Whether an environment's status field shows a switch to a distribution nobody can tell from the list: it says it
 * is switching (one of the two ids in play is then not reported, in either reading of the platform), or it reports no
 * distribution while its status is not 'empty'. Without a status field nothing shows it: the keeps protect a switch then.
 */
function showsUnnamedSwitch(e) {
    if (e.status === undefined)
        return false;
    const id = e.distributionId ?? undefined;
    if ((0,platform_reading/* switching */.Z)(e.status) === true)
        return true;
    return (id === undefined || id === '') && e.status.toLowerCase() !== 'empty';
}
function whySwitching(e) {
    const runs = e.distributionId ? `reports distribution ${e.distributionId}` : 'reports no distribution';
    return `environment '${e.name}' ${runs} with status '${e.status ?? ''}', so it may be switching to a distribution that cannot be known`;
}
/** Why nothing may be deleted on this look at the environments, or undefined. */
function holdOff(list) {
    if (!list.complete) {
        return `the platform listed ${list.items.length} environment(s) but said it has more and would not list them, so a distribution that an unlisted environment runs could be deleted`;
    }
    const busy = list.items.find(showsUnnamedSwitch);
    return busy === undefined ? undefined : whySwitching(busy);
}
function isAbort(error) {
    return error instanceof Error && (error.name === 'AbortError' || error.name === 'WatchdogTimeout');
}
function describe(d) {
    return `${d.id} (${d.name ?? 'no name'}, created ${d.createdAt ?? 'at an unknown time'})`;
}
/** Deletes the oldest distributions that may go, so that the upload keeps the stack at `max`; returns how many went (on a dry run, how many would). */
async function pruneDistributions(client, distributions, max, environments, options) {
    const excess = distributions.length - (max - 1);
    port/* info */.pq(`The stack holds ${distributions.length} distributions; max-distributions is ${max}.`);
    if (excess <= 0) {
        port/* info */.pq('Nothing to prune.');
        return 0;
    }
    const pruning = new Pruning(client, distributions, environments.items, options);
    const held = holdOff(environments);
    if (held !== undefined)
        pruning.stop = `None was deleted, because ${held}.`;
    else
        await pruning.run(excess);
    if (pruning.deleted < excess)
        port/* warning */.$e(pruning.shortfall(max));
    return pruning.deleted;
}
/** One pruning: what must stay, what went, and why it stopped short. */
class Pruning {
    client;
    distributions;
    options;
    deleted = 0;
    /** Why pruning ended before it could delete enough. */
    stop;
    keeps = new Keeps();
    kept = [];
    /** Built-before guesses not yet weighed against GitHub's records. */
    guesses = [];
    refused = [];
    say;
    lastLook;
    records;
    constructor(client, distributions, firstLook, options) {
        this.client = client;
        this.distributions = distributions;
        this.options = options;
        this.say = options.say ?? port/* info */.pq;
        this.lastLook = firstLook;
        this.noteLook(firstLook);
        const startedAt = options.startedAt ?? Date.now();
        for (const d of distributions)
            if (isFresh(d, startedAt))
                this.keeps.add(d.id, { kind: 'fresh' });
    }
    /**
     * Every id an environment reports stays for the rest of the run: it runs there, or ran there (its previous). So
     * does the newest one stored before it (built-before), the likely previous where no GitHub record names one.
     */
    noteLook(items) {
        this.lastLook = items;
        for (const e of items) {
            this.keeps.add(e.distributionId, { kind: 'ran', environment: e.name });
            const runs = e.distributionId;
            const before = runs ? builtBefore(this.distributions, runs) : undefined;
            if (runs && before !== undefined)
                this.guesses.push({ id: before.id, reason: { kind: 'built-before', environment: e.name, runs } });
        }
        this.settleGuesses();
    }
    /**
     * Keeps each built-before guess whose environment's previous no GitHub record names. With github-token, only once
     * the records were read (they are, before any delete): a record that names the previous makes the guess needless.
     */
    settleGuesses() {
        const read = this.records;
        if (this.options.records !== undefined && read === undefined)
            return;
        for (const { id, reason } of this.guesses.splice(0)) {
            if (read === undefined || !this.options.records?.namesPrevious(read, reason.environment, reason.runs))
                this.keeps.add(id, reason);
        }
    }
    why(d) {
        const runs = this.lastLook.find((e) => (0,platform_reading/* sameId */.s)(e.distributionId, d.id));
        return runs === undefined ? this.keeps.why(d.id) : { kind: 'runs', environment: runs.name };
    }
    /** Oldest first, each one that may go deleted (on a dry run, said), until `excess` went or pruning must stop. */
    async run(excess) {
        for (const d of prune_keep_oldestFirst(this.distributions)) {
            if (this.deleted >= excess)
                return;
            const reason = this.why(d) ?? (await this.check(d));
            if (this.stop !== undefined)
                return;
            if (reason !== undefined) {
                this.kept.push(reason);
                port/* info */.pq(`Pruning: kept distribution ${describe(d)}: ${describeKeep(reason)}.`);
                continue;
            }
            if (this.options.dryRun)
                this.say(`Would delete distribution ${describe(d)}.`);
            else if (!(await this.remove(d)))
                continue;
            this.deleted++;
        }
    }
    /** GitHub's records read again, then the environments (right before the delete): why `d` must stay now, if it must. */
    async check(d) {
        const fromRecords = await this.fromRecords(d);
        if (fromRecords !== undefined || this.stop !== undefined)
            return fromRecords;
        if (this.options.dryRun)
            return undefined;
        const look = await this.lookAgain(d);
        if (look === undefined)
            return undefined;
        this.noteLook(look);
        return this.why(d);
    }
    async fromRecords(d) {
        const records = this.options.records;
        if (records === undefined)
            return undefined;
        try {
            // A dry run changes nothing: one read is as good as many.
            if (this.records === undefined || !this.options.dryRun) {
                this.records = await records.read();
                await records.keep(this.records, this.lastLook, this.keeps);
                this.settleGuesses();
            }
            return this.why(d) ?? (await records.underWay(this.records, d.id));
        }
        catch (error) {
            if (isAbort(error))
                throw error;
            this.stop = `Pruning stopped before deleting distribution ${describe(d)}: GitHub's Deployments could not be read (${(0,errors/* describeError */.Uc)(error)}), so a deploy under way that needs it could not be seen.`;
            return undefined;
        }
    }
    /** The environments as they are now; undefined (with `stop` set) when that look cannot be trusted. */
    async lookAgain(d) {
        const stopped = `Pruning stopped before deleting distribution ${describe(d)}`;
        let list;
        try {
            list = await this.client.listEnvironments();
        }
        catch (error) {
            if (isAbort(error))
                throw error;
            this.stop = `${stopped}: the environments could not be listed again right before deleting (${(0,errors/* describeError */.Uc)(error)}).`;
            return undefined;
        }
        const held = holdOff(list);
        if (held !== undefined)
            this.stop = `${stopped}: ${held}.`;
        return held === undefined ? list.items : undefined;
    }
    /**
     * Deletes one distribution; a refusal (409: deployed or being deployed somewhere, or any other failure) is said and
     * pruning goes on with the next oldest: it is housekeeping and never stops a deploy. Only an aborted run stops it.
     */
    async remove(d) {
        try {
            await this.client.deleteDistribution(d.id);
            port/* info */.pq(`Deleted distribution ${describe(d)}`);
            return true;
        }
        catch (error) {
            if (isAbort(error))
                throw error;
            const why = error instanceof errors/* ServiceError */._7 && error.status === 409 ? 'the platform says it is in use (HTTP 409)' : (0,errors/* describeError */.Uc)(error);
            port/* info */.pq(`Pruning: the platform did not delete distribution ${describe(d)}: ${why}. Pruning goes on with the next oldest.`);
            this.refused.push(d.id);
            return false;
        }
    }
    /** The one warning: how many stay, and why none of them could go. */
    shortfall(max) {
        const stays = this.distributions.length - this.deleted;
        const holds = this.options.dryRun
            ? `would hold ${stays} distributions (${this.deleted} deleted), ${stays + 1} with the upload`
            : `holds ${stays} distributions (${this.deleted} deleted), ${stays + 1} with this upload`;
        const why = [
            ...(this.stop === undefined ? [] : [this.stop]),
            ...(this.kept.length === 0 ? [] : [`${this.stop === undefined ? 'None of the others may go' : 'Kept before that'}: ${countKept(this.kept).join(', ')}.`]),
            ...(this.refused.length === 0 ? [] : [`The platform did not delete ${this.refused.length} (${this.refused.join(', ')}), said above.`])
        ];
        return `max-distributions=${max} could not be kept: the stack ${holds}. ${why.join(' ')}`;
    }
}

// EXTERNAL MODULE: ./src/action-metadata.ts
var action_metadata = __webpack_require__(10227);
// EXTERNAL MODULE: ./src/inputs/index.ts + 5 modules
var inputs = __webpack_require__(1801);
;// CONCATENATED MODULE: ./src/deploy/source.ts
// The distribution to deploy: one already on the stack (distribution-id, or what another environment
// runs), an identical one already stored (reused), or the archive uploaded after pruning. Also the
// lookups that could refuse the run before anything changes: environments by name, config files.








/** The environment of that exact name; an error that lists the names there when it does not exist. */
async function findEnvironment(client, name, target, input) {
    const { environment, list } = await client.findEnvironment(name);
    if (environment)
        return { environment, list };
    const names = list.items.map((e) => `'${e.name}'`).join(', ') || 'none';
    const partial = list.complete ? '' : ' (the platform listed only these and would not page further, and a lookup by name found nothing)';
    throw new errors/* InputError */.dz(`${input} '${name}' does not exist on ${target}. The environments there are: ${names}${partial}. Names are case-sensitive.`);
}
/** The ids of the config files named, in the order given; an unknown name is refused before any change. */
async function resolveConfigFiles(client, names, target) {
    const files = await client.listAppConfigFiles();
    const unknown = names.filter((n) => !files.some((f) => f.name === n));
    if (unknown.length > 0) {
        const there = files.map((f) => `'${f.name}'`).join(', ') || 'none';
        throw new errors/* InputError */.dz(`config-files names ${unknown.map((n) => `'${n}'`).join(', ')}, which ${unknown.length === 1 ? 'does' : 'do'} not exist on ${target}. ` +
            `The application configuration files there are: ${there}. Names are case-sensitive.`);
    }
    return names.map((n) => files.find((f) => f.name === n)?.id);
}
/** Prunes with the environments as the run first listed them (a list the platform would not complete prunes nothing). */
async function prune(ctx, stored, max, known) {
    const { client, inputs } = ctx;
    const list = known ?? (await client.listEnvironments());
    return pruneDistributions(client, stored, max, list, {
        dryRun: inputs.dryRun,
        say: inputs.dryRun ? ctx.say : port/* info */.pq,
        startedAt: ctx.startedAt,
        records: ctx.records
    });
}
/** A distribution given by id: it must be on the stack. */
async function byId(ctx, id) {
    return ctx.phase(`Check distribution ${id}`, async () => {
        const found = await ctx.client.getDistribution(id);
        if (found === undefined) {
            throw new errors/* InputError */.dz(`distribution-id '${id}' does not exist on ${ctx.target}. Copy the id from the console or from an earlier run's distribution-id output.`);
        }
        port/* info */.pq(`Distribution ${found.id}${found.name ? ` (${found.name})` : ''} is on the stack.`);
        ctx.result.knownName = found.name;
        ctx.result.knownMd5 = found.md5hash;
        return found.id;
    });
}
/** What another environment runs. */
async function fromEnvironment(ctx, name) {
    return ctx.phase(`Find what '${name}' runs`, async () => {
        const { environment: from } = await findEnvironment(ctx.client, name, ctx.target, 'from-environment');
        if (!from.distributionId) {
            throw new errors/* InputError */.dz(`from-environment '${name}' runs no distribution on ${ctx.target}: deploy to it first, or set distribution-id.`);
        }
        port/* info */.pq(`Environment '${name}' runs distribution ${from.distributionId}.`);
        const stored = await ctx.client.getDistribution(from.distributionId).catch(() => undefined);
        ctx.result.knownName = stored?.name;
        ctx.result.knownMd5 = stored?.md5hash;
        return from.distributionId;
    });
}
/** An identical stored distribution (same name and MD5, in any case), or undefined; the stack's distributions are noted for pruning. */
async function findIdentical(ctx, ready) {
    const { inputs, result } = ctx;
    const stored = await ctx.phase('Look for an identical distribution', async () => {
        const all = await ctx.client.listDistributions();
        // Only a stored distribution of the same name needs the MD5, and so the whole check, now.
        const named = all.filter((d) => (0,distribution_name/* sameDistributionName */.Gd)(d.name, ready.fileName));
        const md5 = named.length > 0 ? (await ctx.verified(ready)).md5 : undefined;
        const same = named.find((d) => (0,client/* sameMd5 */.vh)(d.md5hash, md5));
        if (same)
            ctx.say(`The stack already holds ${ready.fileName} with the same MD5 as distribution ${same.id}: ${inputs.dryRun ? 'would reuse it' : 'reusing it'}, no upload.`);
        else
            ctx.say(`No distribution named ${ready.fileName} with this MD5 on the stack: ${inputs.dryRun ? 'would upload it' : 'uploading it'}.`);
        return { all, same };
    });
    result.reused = stored.same !== undefined;
    result.listedBefore = stored.all.map((d) => d.id);
    ctx.stored = stored.all;
    result.storedBefore = stored.all.length;
    return stored.same?.id;
}
/**
 * Deletes old distributions before an upload when max-distributions asks (on a dry run, counts what would go).
 * Called only once nothing can refuse the run any more (the deploy order was checked): a refused run changes nothing.
 */
async function pruneBeforeUpload(ctx, ready, environments) {
    const { inputs, result } = ctx;
    const max = inputs.maxDistributions;
    const stored = ctx.stored;
    if (max === undefined || stored === undefined)
        return;
    const deleted = await ctx.phase('Prune old distributions', async () => {
        // Deleting is not undone: only for an archive known to be sound (a packed one is: it was made here).
        if (!ready.packed)
            await ctx.verified(ready);
        return prune(ctx, stored, max, environments);
    });
    if (inputs.dryRun)
        result.wouldPrune = deleted;
    else
        result.pruned = deleted;
    result.storedBefore = stored.length - (result.pruned ?? 0);
}
/** No upload (an identical distribution reused, or one named by id): with max-distributions, none was deleted. */
function pruneNone(ctx) {
    if (ctx.inputs.maxDistributions === undefined)
        return;
    if (ctx.inputs.dryRun)
        ctx.result.wouldPrune = 0;
    else
        ctx.result.pruned = 0;
}
/** The distribution's id when it is already on the stack; undefined when the archive must be uploaded. */
async function chooseDistribution(ctx, archive) {
    const source = ctx.inputs.source;
    if (source.kind === 'id')
        return byId(ctx, source.id);
    if (source.kind === 'environment')
        return fromEnvironment(ctx, source.name);
    return archive === undefined ? undefined : findIdentical(ctx, archive);
}
/**
 * A 413 (Payload Too Large): the platform's own limit, which max-distribution-mb does not move. Said with the
 * archive's size, and, when max-distribution-mb was raised above its default, that raising it did not help.
 */
function tooLarge(error, size, maxBytes) {
    const defaultMb = Number(action_metadata/* INPUT_DEFAULTS */.W['max-distribution-mb']);
    const raised = maxBytes > defaultMb * inputs.MB
        ? ` max-distribution-mb (${maxBytes / inputs.MB}) is above its default of ${defaultMb}, but it sets only this action's own check before the upload, not the platform's limit.`
        : '';
    return new errors/* ServiceError */._7(`${error.message}. The platform refused the archive as too large (413): it is ${(0,format/* formatBytes */.z3)(size)} (${size} bytes).${raised} ` +
        "Make the distribution smaller (leave logs, caches and duplicate jars out of it), or ask Bloomreach support about the stack's upload limit.", error.status, error.errorCode, error.errorDetail, error.retryAfterMs);
}
/** Uploads the archive; notes what the platform stored. */
async function upload(ctx, ready) {
    const uploaded = await ctx.phase('Upload the distribution', async () => {
        const onUnconfirmed = (unconfirmed) => void (ctx.result.uploadUnconfirmed = unconfirmed);
        const file = {
            bytes: ready.bytes,
            fileName: ready.fileName,
            size: ready.size,
            // A given archive's check gates the body's end; a packed one checks itself as it is read.
            gate: ready.packed ? undefined : ctx.verified(ready),
            md5: async () => (await ctx.verified(ready)).md5,
            storedBefore: ctx.result.storedBefore,
            // A stored copy after a lost answer is one not listed before: no clock is compared.
            knownBefore: ctx.result.listedBefore && new Set(ctx.result.listedBefore),
            onUnconfirmed
        };
        const d = await ctx.client.uploadDistribution(file).catch((error) => {
            throw error instanceof errors/* ServiceError */._7 && error.status === 413 ? tooLarge(error, ready.size, ctx.inputs.maxDistributionBytes) : error;
        });
        ctx.result.uploadUnconfirmed = false;
        // A packed archive's hashes are those of the bytes just sent: noted now, before anything reports.
        if (ready.packed)
            await ctx.verified(ready);
        port/* info */.pq(`${d.adopted ? 'Adopted' : 'Uploaded'}: distribution id ${d.id}${d.name ? ` (${d.name})` : ''}.`);
        return d;
    });
    ctx.result.upload = { distributionId: uploaded.id, storedName: uploaded.name ?? ready.fileName, attempts: uploaded.attempts, adopted: uploaded.adopted };
    return uploaded.id;
}

;// CONCATENATED MODULE: ./src/deploy/index.ts
// The deployment step, in order: build -> the archive -> login -> config files -> environment -> the
// distribution (./source.ts) -> the release (./release.ts: wait, request, follow, check, roll back)
// -> a last look at the environment. It returns what it did (DeployResult), or throws StepFailed with
// what it did so far; report.ts derives outputs and summary from that. Loaded by main.ts only once the
// inputs are valid.



























const USER_AGENT = 'brcloud-deploy (GitHub Action)';
/** Retries of cloud calls: attempts from max-attempts, waits from 1 s to 15 s, at most 5 minutes per operation. */
function retryPolicy(inputs, signal) {
    return { attempts: inputs.maxAttempts, baseDelayMs: 1_000, maxDelayMs: 15_000, maxTotalMs: 5 * 60_000, signal };
}
/** The last look's own limit: it also runs after the watchdog aborted everything else. */
const LAST_LOOK_MS = 3_000;
/** The health check with the run's settings (each attempt's time limit, user agent, watchdog, log); the page that answered kept as site-url. */
function siteCheck(inputs, result, health, signal) {
    const answered = (address) => void (result.siteUrl = address);
    const tried = (attempt) => void (result.healthAttempts = (0,deploy_result/* keepReading */.G2)(result.healthAttempts, attempt));
    return (0,src_health/* checkHealth */.Ns)({ ...health, requestTimeoutMs: inputs.requestTimeoutMs, userAgent: USER_AGENT, signal, log: port/* info */.pq, answered, tried });
}
/** Why a run that deploys again what the environment reports (or skips it) does so. */
function redeployReason(inputs) {
    if (inputs.forceDeploy)
        return 'force-deploy is true';
    if (inputs.configFiles.length > 0)
        return 'config-files are given, and the platform cannot tell which config files the environment runs with';
    return undefined;
}
async function deploy(inputs, phase, signal, verify) {
    return startDeploy(inputs, phase, signal, verify).done;
}
/**
 * `closeLimitMs`: each closing call's limit, asked when the closing calls begin: after a stop, the caller's (a
 * cancel leaves seconds, SIGTERM alone less), else the last look's own.
 */
function startDeploy(inputs, phase, signal, verify, closeLimitMs = () => LAST_LOOK_MS) {
    const { address } = inputs;
    const target = address.stack ? `stack '${address.stack}' (${address.apiUrl})` : address.apiUrl;
    const result = (0,deploy_result/* newDeployResult */.f2)(inputs);
    const { transport, session, client } = openCloud(inputs, target, signal);
    const run = newRun({ inputs, result, phase, signal, verify, target, session, client, closeLimitMs });
    const done = runToEnd(run, transport);
    return { result, done, close: (limitMs) => closeRun(run, limitMs) };
}
/** The run's door to Bloomreach Cloud: its transport (closed when the run ends), the session that logs in, the client. */
function openCloud(inputs, target, signal) {
    const transport = new http_transport/* HttpTransport */.G(inputs.address.apiUrl, { userAgent: USER_AGENT, timeoutMs: inputs.requestTimeoutMs, signal });
    const api = new cloud_api/* CloudApi */.q(transport, {
        retry: retryPolicy(inputs, signal),
        uploadIdleTimeoutMs: inputs.requestTimeoutMs,
        callTimeoutMs: inputs.requestTimeoutMs
    });
    const session = new cloud_session/* CloudSession */.ou(api, (0,choose/* loginMethodFor */.q)(inputs.login, target, { signal, attempts: inputs.maxAttempts }), { target });
    return { transport, session, client: new client/* CloudClient */.Ll(api, session) };
}
/** What every step shares: the settings and doors, the release gate, and how a step says, warns and notes the hashes. */
function newRun(settings) {
    const { inputs, result, signal } = settings;
    // A warning the summary repeats: the run's and the release gate's (an overridden rule).
    const caution = (line) => {
        port/* warning */.$e(line);
        result.cautions.push(line);
    };
    return {
        ...settings,
        cleanup: [],
        startedAt: Date.now(),
        github: {},
        closed: undefined,
        gate: new ReleaseGate({
            rules: inputs.rules,
            record: (result.rules ??= {}),
            environment: inputs.environment ?? '',
            dryRun: inputs.dryRun,
            now: () => Date.now(),
            signal,
            log: port/* info */.pq,
            caution,
            gitlab: inputs.codeHost.gitlab !== undefined
        }),
        say: (line) => {
            port/* info */.pq(line);
            if (inputs.dryRun)
                result.plan.push(line);
        },
        caution,
        verified: async (ready) => {
            const info = await ready.hashes();
            if (result.archive) {
                result.archive.sha256 = info.sha256;
                result.archive.md5 = info.md5;
            }
            return info;
        }
    };
}
/**
 * The steps, then the closing calls whatever happened: the result, or StepFailed carrying it (and the GitHub
 * Deployment's failure). Always: the token renewals noted, the transport closed, the temporary folders removed.
 */
async function runToEnd(run, transport) {
    const { github, result, session } = run;
    try {
        await steps(run, github);
        await closeRun(run); // a dry run logged in too: its refresh token is revoked as well
        return result;
    }
    catch (error) {
        await closeRun(run);
        await github.deployment?.set('failure', (0,release_state/* rolledBack */.EN)(result.release) ? `Rolled back to ${result.release?.rollbackTo ?? '?'}` : `The deploy failed; ${(0,advice/* seeTheRun */.OA)()}`);
        throw new errors/* StepFailed */.an(result, failureOf(result, error));
    }
    finally {
        result.tokenRenewals = session.renewals;
        await transport.close().catch(() => undefined);
        for (const dir of run.cleanup)
            await (0,promises_.rm)(dir, { recursive: true, force: true }).catch(() => undefined);
    }
}
/** The steps in order; a dry run stops once it has said what it would do. */
async function steps(run, github) {
    const { inputs, result } = run;
    // A freeze window costs no request to check: before the build, the login and anything else.
    if (inputs.environment !== undefined)
        run.gate.freeze('start');
    // A token the stack did not issue is checked before the build and the packing: a refusal costs nothing then.
    if (inputs.login.kind !== 'password')
        await signIn(run);
    const archive = await prepare(run);
    const stack = await readStack(run);
    const source = {
        inputs,
        client: run.client,
        phase: run.phase,
        result,
        target: run.target,
        say: run.say,
        verified: run.verified,
        startedAt: run.startedAt
    };
    let distributionId = await chooseDistribution(source, archive);
    result.distributionId = distributionId;
    const { environment } = stack;
    const alreadyRuns = environment !== undefined && distributionId !== undefined && (0,platform_reading/* sameId */.s)(environment.distributionId, distributionId);
    const redeploy = alreadyRuns ? redeployReason(inputs) : undefined;
    const skip = alreadyRuns && redeploy === undefined;
    if (environment)
        planDeploy(inputs, environment, distributionId, skip, redeploy, result, run.say);
    const host = await (0,code_host_open/* openCodeHost */.u)(inputs.codeHost, run.signal);
    // Pruning keeps what GitHub's Deployments name; GitLab's deployments name no distribution.
    if (host instanceof github_client.GitHubApi)
        source.records = new PruneRecords(host, inputs.address.apiUrl);
    // Before any change: an older commit than the one the environment runs is refused here.
    const order = environment && !skip ? await checkOrder(run, host, environment, distributionId) : undefined;
    if (order?.last)
        result.changes = await (0,deploy_changes/* readChanges */.St)(host, order.last, port/* info */.pq);
    // The soak gate and the backup rule: before any change too (an environment that already runs it is not deployed to).
    if (environment && !skip)
        await checkRules(run, host, environment, distributionId);
    if (distributionId === undefined && archive !== undefined)
        await pruneBeforeUpload(source, archive, stack.environments);
    else
        pruneNone(source);
    if (inputs.dryRun)
        return finishDryRun(run, archive);
    if (distributionId === undefined && archive !== undefined) {
        distributionId = await upload(source, archive);
        result.distributionId = distributionId;
    }
    if (environment && host && !skip && distributionId !== undefined) {
        github.deployment = await recordDeployment(run, host, environment.name, distributionId, order);
        order?.noteOwnDeployment(github.deployment?.id);
    }
    if (environment && distributionId !== undefined && !skip) {
        await release(inputs, { ...run, environment, distributionId, configFileIds: stack.configFileIds, order, host }, result);
    }
    else {
        result.skipped = skip;
        await checkWithoutDeploy(run);
    }
    await closeRun(run);
    if (result.release) {
        noteLateChange(result, run.caution);
        const how = result.release.state === 'already-running' ? 'Runs' : 'Deployed';
        await github.deployment?.set('success', `${how} ${distributionId ?? ''}`);
    }
    github.deployment = undefined;
    result.completed = true;
}
/** The deploy order against what the environment runs (./order.ts); throws OrderRefused when ours is older. */
async function checkOrder(run, host, environment, distributionId) {
    const { inputs, result } = run;
    const order = new deploy_order/* DeployOrder */.sG({
        host,
        client: run.client,
        apiUrl: inputs.address.apiUrl,
        environment: environment.name,
        allowOlder: inputs.allowOlderCommit,
        allowUnchecked: inputs.allowUncheckedOrder,
        promoted: inputs.source.kind === 'upload' ? undefined : distributionId,
        dryRun: inputs.dryRun,
        log: run.say,
        warn: run.caution,
        notice: port/* notice */.lm,
        record: (check) => void (result.order = check)
    });
    const running = environment.distributionId ?? undefined;
    // Without a token there is nothing to read: one line says so, without a phase of its own.
    if (host === undefined)
        await order.check(running);
    else
        await run.phase(`Check the deploy order on '${environment.name}'`, () => order.check(running));
    return order;
}
/** The soak gate of a promotion and the backup rule (src/rules/gate.ts): RuleRefused, or overridden on the record. */
async function checkRules(run, host, environment, distributionId) {
    const { rules } = run.inputs;
    const soak = rules.soak;
    if (soak !== undefined && distributionId !== undefined)
        await run.phase(`Check the soak gate: ${distributionId} in '${soak.environment}'`, () => run.gate.soak(host, run.inputs.address.apiUrl, distributionId));
    if (rules.backupHours !== undefined)
        await run.phase(`Check the backups of '${environment.name}'`, () => run.gate.backup(run.client, environment.id));
}
/**
 * Records the deploy as a GitHub Deployment of the commit deployed, with the distribution's id in its payload. A
 * promoted distribution whose commit is not known is recorded at the run's commit (GitHub needs one) with the
 * payload saying the commit is unknown, so no later run reads the run's commit as the distribution's.
 */
function recordDeployment(run, host, environment, distributionId, order) {
    const { result } = run;
    const name = result.upload?.storedName ?? result.archive?.name ?? result.knownName;
    // The commit the check found, also when the order itself stayed unknown (a running commit the host does not know).
    const ours = order?.oursEvidence;
    const promotion = run.inputs.source.kind !== 'upload';
    const override = result.rules?.override;
    const changes = payloadChanges(result.changes);
    const known = promotion ? (ours?.from === 'run' ? undefined : ours?.sha) : undefined;
    const ref = known ?? (host.sha || host.ref);
    const payload = {
        distributionId,
        distributionName: name,
        // What the environment ran before (the rollback target): another run's pruning keeps it.
        ...(result.previousDistributionId !== undefined && { previousDistributionId: result.previousDistributionId }),
        apiUrl: result.apiUrl,
        ...(promotion && known === undefined && { commit: 'unknown' }),
        ...(changes !== undefined && { changes }),
        ...(override && { override: { reason: override.reason, overrode: [...override.overrode] } }),
        ...(result.rules?.backup?.id !== undefined && { backupId: result.rules.backup.id })
    };
    const description = deploymentDescription({ name: name ?? distributionId, target: result.target, changes: result.changes, overrideReason: override?.reason });
    return RecordedDeployment.start(host, environment, description, payload, ref, run.inputs.environmentUrl);
}
/** The optional build, then the archive on disk (checked or packed); undefined when nothing is uploaded. */
async function prepare(run) {
    const { inputs, result } = run;
    if (inputs.buildCommand) {
        const command = inputs.buildCommand;
        await run.phase(`Build: ${command}`, () => runBuildCommand(command, workspace()));
    }
    if (inputs.source.kind !== 'upload')
        return undefined;
    const ready = await run.phase('Prepare the distribution', () => prepareArchive(inputs, run.cleanup));
    result.archive = { name: ready.fileName, source: ready.packed ? 'packed' : 'archive', size: ready.size, sha256: undefined };
    // A packed directory's hashes are known once its bytes were read whole (by the upload, or for a lookup).
    if (ready.packed)
        ready.verified.then(() => run.verified(ready), () => undefined);
    return ready;
}
/** The token, and for a token the stack did not issue (single sign-on) the stack's word that it accepts it. */
async function signIn(run) {
    const how = run.inputs.login.kind === 'oauth' ? ` through ${run.inputs.login.tokenUrl}` : run.inputs.login.kind === 'token' ? ' with access-token' : '';
    await run.phase(`Log in to ${run.target}${how}`, async () => {
        await run.session.login();
        run.result.platformReached = true;
        // A refusal ends the run here: the environment is not found, so the closing calls only revoke.
        const check = await run.session.verify();
        if (check === undefined)
            return port/* info */.pq(`Logged in as ${run.session.who}.`);
        port/* info */.pq(`The stack accepts the token: user ${check.userId ?? '(not named)'}, role ${check.role ?? '(not named)'}.`);
    });
}
/** Login, config files and the environment: everything that could refuse the run, read before anything changes. */
async function readStack(run) {
    const { inputs, result, client, target } = run;
    if (!result.platformReached)
        await signIn(run);
    let configFileIds = [];
    if (inputs.configFiles.length > 0) {
        configFileIds = await run.phase('Find the config files', async () => {
            const ids = await resolveConfigFiles(client, inputs.configFiles, target);
            port/* info */.pq(`Config files: ${inputs.configFiles.map((n, i) => `'${n}' (${ids[i] ?? '?'})`).join(', ')}, role systemproperty.`);
            return ids;
        });
    }
    const name = inputs.environment;
    if (name === undefined)
        return { configFileIds, environment: undefined, environments: undefined };
    const found = await run.phase(`Find environment '${name}'`, async () => {
        const lookup = await findEnvironment(client, name, target, 'environment');
        const env = lookup.environment;
        port/* info */.pq(`Environment '${env.name}' has id ${env.id}${env.distributionId ? `; it runs distribution ${env.distributionId}` : '; it runs no distribution'}.`);
        return lookup;
    });
    result.environmentId = found.environment.id;
    result.previousDistributionId = found.environment.distributionId ?? undefined;
    result.foundDistributionId = result.previousDistributionId;
    return { configFileIds, environment: found.environment, environments: found.list };
}
/** A dry run: the archive's whole check, what it would check, the search check (which changes nothing). */
async function finishDryRun(run, archive) {
    const { inputs } = run;
    if (archive)
        await run.verified(archive);
    if (inputs.health)
        run.say(`Would check ${inputs.health.shown} until it answers 2xx${inputs.health.expect === undefined ? '' : ` containing '${inputs.health.expect}'`}.`);
    if (run.verify)
        await run.verify();
    run.result.completed = true;
}
/** Nothing was deployed (the environment already ran it, or an upload only): the site and search are checked all the same. */
async function checkWithoutDeploy(run) {
    const health = run.inputs.health;
    if (health)
        await run.phase(`Health check ${health.shown}`, () => siteCheck(run.inputs, run.result, health, run.signal));
    const why = run.verify ? await run.verify() : undefined;
    if (why !== undefined)
        throw new errors/* ActionError */.lZ(why);
}
/**
 * The run's last calls, once: a look at the environment and the refresh token revoked (only after a login), and,
 * when the run was stopped (a cancel, the watchdog), the GitHub Deployment's final status.
 */
function closeRun(run, limitMs = run.closeLimitMs()) {
    const stopped = run.signal?.aborted ? run.signal.reason : undefined;
    const deployment = run.github.deployment;
    const finalStatus = stopped === undefined || deployment === undefined
        ? undefined
        : () => deployment.set('canceled', `${stopped.name === 'WatchdogTimeout' ? 'Stopped by its watchdog' : 'Cancelled'} while the release was ${run.result.release?.state ?? 'not yet requested'}; ${(0,advice/* seeTheRun */.OA)()}`);
    if (!run.result.platformReached)
        return finalStatus?.() ?? Promise.resolve();
    // The last look is at an environment this run found: a name the platform never listed has nothing to look at.
    const found = run.result.environmentId !== undefined;
    // The look is kept the moment it is known: a run hurried by a second signal reports before the revocation ends.
    run.closed ??= closingCalls(run.inputs, run.session, limitMs, found, finalStatus, (look) => (run.result.finalLook = look));
    return run.closed;
}
/** Logs (and on a dry run plans) what happens to the environment. */
function planDeploy(inputs, environment, distributionId, skip, redeploy, result, say) {
    const files = inputs.configFiles.length > 0 ? ` with config files ${inputs.configFiles.map((n) => `'${n}'`).join(', ')}` : '';
    const would = inputs.dryRun;
    if (skip) {
        say(`'${environment.name}' already runs ${distributionId}: ${would ? 'would skip the deploy' : 'no deploy'} (force-deploy: true deploys it again).`);
        return;
    }
    if (redeploy)
        say(`'${environment.name}' already runs ${distributionId}; ${would ? 'would deploy' : 'deploying'} it again because ${redeploy}.`);
    if (!would)
        return;
    say(`Would deploy ${distributionId ?? 'the uploaded distribution'} to '${environment.name}' (${environment.id}) with strategy ${inputs.deployStrategy}${files}.`);
    if (inputs.rollback) {
        say(result.previousDistributionId && result.previousDistributionId !== distributionId
            ? `Would roll back to ${result.previousDistributionId} if the new release fails its checks.`
            : `Would not roll back: '${environment.name}' runs no other distribution now, so there would be nothing to go back to.`);
    }
}
/**
 * Our release, through its states; a failure rolls back when asked, and the step fails saying what runs now. Once it
 * ended (a rollback included: the commits never delay it), the release's commits follow the order's last check.
 */
async function release(inputs, parts, result) {
    try {
        await releaseSteps(inputs, parts, result);
    }
    finally {
        await changesAfterWait(parts, result);
    }
}
async function releaseSteps(inputs, parts, result) {
    const { environment } = parts;
    const record = (0,release_state/* newRelease */.Gj)(environment.name, parts.distributionId, result.previousDistributionId);
    result.release = record;
    const ctx = {
        client: parts.client,
        watch: new EnvironmentWatch(parts.client, environment.name, {
            signal: parts.signal,
            log: port/* info */.pq,
            seen: (look) => void (result.looks = (0,deploy_result/* keepReading */.G2)(result.looks, look))
        }),
        signal: parts.signal,
        environmentId: environment.id,
        strategy: inputs.deployStrategy,
        configFileIds: parts.configFileIds,
        maxAttempts: inputs.maxAttempts,
        requestTimeoutMs: inputs.requestTimeoutMs,
        log: port/* info */.pq,
        warn: port/* warning */.$e,
        phase: parts.phase,
        followDeploy: inputs.followDeploy,
        deployTimeoutMs: inputs.deployTimeoutMs,
        health: inputs.health,
        checkSite: (health) => siteCheck(inputs, result, health, parts.signal),
        order: parts.order,
        // A wait for a busy environment may cross into a freeze window: checked again right before the request.
        beforeRequest: () => parts.gate.freeze('request', result.upload ? `${parts.distributionId}, uploaded by this run,` : parts.distributionId)
    };
    const failure = await deployRelease(ctx, record, parts.verify).catch((error) => {
        if (parts.signal?.aborted)
            record.stopped = `the run was stopped (${parts.signal.reason.name}) while the release was ${record.state}, before more could be seen`;
        throw error;
    });
    result.previousDistributionId = record.previous;
    if (record.state === 'already-running') {
        result.skipped = true;
        return checkWithoutDeploy(parts);
    }
    cautionsAbout(inputs, record, parts.caution);
    if (failure === undefined)
        return;
    const rollsBack = inputs.rollback && (record.failure?.kind !== 'search' || inputs.rollbackOnSearch);
    if (rollsBack) {
        try {
            await rollBack(ctx, record);
        }
        catch (error) {
            // A stop (watchdog, cancel) is no verdict on the rollback: it says how far it came, and the run ends as stopped.
            if (parts.signal?.aborted)
                throw rollbackStopped(record, error);
            rollbackFailed(record, error);
        }
    }
    // The message is written once the last look is known (in deploy's finally): see failureOf().
    throw new ReleaseFailed(failure.message, inputs.rollback, inputs.rollbackOnSearch);
}
/**
 * A wait may have changed what the environment ran (another job's deploy, which the deploy order checked again): the
 * release's commits then follow that last check, so `changes` names what this release brings over what it replaced.
 */
async function changesAfterWait(parts, result) {
    const check = result.order;
    const changes = result.changes;
    // A check that refused the deploy changed nothing: no commits came or went.
    if (check?.recheck !== true || check.refused === true || changes === undefined || changes.running === check.running?.sha)
        return;
    if (parts.signal?.aborted)
        return;
    // Only the run's stop can end the reading with an error (GitHub's failures are its `why`): the step's own ending stands.
    result.changes = await (0,deploy_changes/* readChanges */.St)(parts.host, check, port/* info */.pq).catch(() => changes);
}
/** Warnings about what the checks could not show. */
function cautionsAbout(inputs, record, caution) {
    if (record.state === 'failed' || record.state === 'replaced')
        return;
    if (inputs.health !== undefined && inputs.health.expect === undefined) {
        caution(`The health check cannot tell the new release from the old one: any 2xx answer passes, and the old release may still be answering. ` +
            `Write a release marker into a page (e.g. the commit SHA into version.txt at build time) and set health-expect to it (${(0,advice/* healthExpectCommit */.h$)()}).`);
    }
    if (record.appliedBy === 'not-observed' && record.site !== 'marker') {
        // The reported state's evidence says what was seen (from the first look on, or after no id at all) and why it proves nothing.
        const seen = (0,release_state/* reached */.V6)(record, 'reported')?.evidence ?? `'${record.environment}' reports ${record.distributionId}`;
        caution(`${seen}. The switch itself was not seen: set health-url and health-expect to a release marker to verify that the new release serves.`);
    }
}
/** A release that passed, but the last look shows another distribution: someone deployed after it. Said, never undone. */
function noteLateChange(result, caution) {
    const look = result.finalLook;
    // No id at the end (a restarted platform, a switch that shows none) is no deploy of anyone's.
    if (look === undefined || 'error' in look || look.distributionId === undefined || (0,platform_reading/* sameId */.s)(look.distributionId, result.distributionId))
        return;
    // What ran before: ours has not switched yet (not followed, or reported at request), which is no other deploy.
    if ((0,platform_reading/* sameId */.s)(look.distributionId, result.release?.previous))
        return;
    caution(`${(0,outcome/* nowRuns */.H$)(result) ?? ''} That is not ${result.distributionId ?? 'the deployed distribution'}: another deploy followed this one.`);
}
/** The release failed; its message gets the rollback and what runs now once the last look was taken. */
class ReleaseFailed extends errors/* ActionError */.lZ {
    rollbackOn;
    searchRollsBack;
    name = 'ReleaseFailed';
    constructor(message, rollbackOn, searchRollsBack) {
        super(message);
        this.rollbackOn = rollbackOn;
        this.searchRollsBack = searchRollsBack;
    }
}
/** The failure message of a deploy step that stopped: the cause, what was rolled back, what runs now. */
function failureOf(result, cause) {
    if (cause instanceof ReleaseFailed)
        return new errors/* ActionError */.lZ((0,outcome/* releaseFailure */.uu)(result, cause.message, cause.rollbackOn, cause.searchRollsBack));
    if (result.release?.state === 'replaced' || result.release?.state === 'failed') {
        return (0,errors/* restated */.lL)(cause, (0,outcome/* releaseFailure */.uu)(result, cause instanceof Error ? cause.message : String(cause), result.rollback, result.rollbackOnSearch));
    }
    const now = result.release ? (0,outcome/* nowRuns */.H$)(result) : undefined;
    if (now && cause instanceof errors/* ActionError */.lZ)
        return (0,errors/* restated */.lL)(cause, `${cause.message} ${now}`);
    return cause;
}
/**
 * The run's last calls, through a door of their own (a short limit, no watchdog, so they also run after
 * it fired): one look at the environment (what it runs when the step ends), then this run's refresh
 * token revoked, so nothing stays valid after the job. A failure to revoke is a warning, never a failure.
 */
async function closingCalls(inputs, session, limitMs, found, alongside, looked) {
    const transport = new http_transport/* HttpTransport */.G(inputs.address.apiUrl, { userAgent: USER_AGENT, timeoutMs: limitMs });
    const api = new cloud_api/* CloudApi */.q(transport, { retry: { attempts: 1 } });
    session.reroute(api, limitMs);
    let look = Promise.resolve();
    try {
        if (!inputs.environment || inputs.dryRun || !found)
            return;
        // The look (with any token renewal it needs) gets `limitMs` in all, so the revocation always has its turn.
        const looking = new EnvironmentWatch(new client/* CloudClient */.Ll(api, session), inputs.environment).look();
        look = looking;
        looked(await within(limitMs, looking));
    }
    catch (error) {
        looked({ error: error instanceof Error ? error.message : String(error) });
    }
    finally {
        // The revocation and anything else left (a GitHub Deployment's status) at once: a cancel has seconds.
        const [failed] = await Promise.all([session.revoke(api), alongside?.()]);
        if (failed !== undefined)
            port/* warning */.$e(`Could not revoke this run's refresh token (${failed}); it expires by itself within 24 hours.`);
        // A look given up at its limit may still be renewing the token (a login after a refresh that failed): the door
        // stays open for that login's own revocation until the look ends, within the limit once more, and the run waits
        // for it (the command exits the moment the run ends: a revocation still in flight would never be sent or said).
        await within(limitMs, look).catch(() => undefined);
        if (session.loggingIn)
            port/* warning */.$e(`A login the last look made was still under way when the run ended: its refresh token may stay valid, and expires by itself within 24 hours.`);
        void transport.close().catch(() => undefined);
    }
}
/** `work`, or a CallTimeoutError-like failure once `ms` passed (the work itself goes on, unawaited). */
function within(ms, work) {
    let timer;
    const late = new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${Math.round(ms / 1000)} s`)), ms);
    });
    work.catch(() => undefined); // a look that fails after the limit is nobody's failure
    return Promise.race([work, late]).finally(() => clearTimeout(timer));
}


/***/ }),

/***/ 14730:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   G2: () => (/* binding */ keepReading),
/* harmony export */   XA: () => (/* binding */ MAX_READINGS),
/* harmony export */   f2: () => (/* binding */ newDeployResult)
/* harmony export */ });
/** The most looks and health attempts a result keeps: a deploy followed for hours stays small. */
const MAX_READINGS = 1_000;
/** Keeps one more reading (a look, a health attempt) in `list`, up to MAX_READINGS. */
function keepReading(list, reading) {
    const kept = list ?? [];
    if (kept.length < MAX_READINGS)
        kept.push(reading);
    return kept;
}
/** The result of a deployment that has just begun: what the inputs say, nothing done yet. */
function newDeployResult(inputs) {
    const { address } = inputs;
    return {
        apiUrl: address.apiUrl,
        target: address.stack ?? address.apiUrl,
        consoleUrl: address.consoleUrl,
        dryRun: inputs.dryRun,
        strategy: inputs.deployStrategy,
        rollback: inputs.rollback,
        rollbackOnSearch: inputs.rollbackOnSearch,
        environmentName: inputs.environment,
        source: inputs.source.kind,
        fromEnvironment: inputs.source.kind === 'environment' ? inputs.source.name : undefined,
        configFiles: inputs.configFiles,
        skipped: false,
        rules: {},
        cautions: [],
        plan: [],
        completed: false,
        tokenRenewals: 0
    };
}


/***/ })

};
