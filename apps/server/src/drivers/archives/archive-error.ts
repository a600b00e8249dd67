/**
 * The archive is unsafe (a link, a device, an escaping name) or too big. A file of its own: who
 * only tells this error apart (the file workers' parent) need not load the archive readers.
 */
export class ArchiveError extends Error {}
