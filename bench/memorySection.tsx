/**
 * The memory section of bench/results.md: the summary of bench/memory-results.md and a link to
 * it. Written by `npm run bench:memory` (upsertMemorySection) and by `npm run bench` when it
 * regenerates results.md (memorySection), so either run keeps it.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';

export const SUMMARY_START = '<!-- memory-summary:start -->';
export const SUMMARY_END = '<!-- memory-summary:end -->';
const SECTION_START = '<!-- memory:start -->';
const SECTION_END = '<!-- memory:end -->';

/** The section for results.md, or '' when bench/memory-results.md has not been written yet. */
export function memorySection(memoryResultsFile: string): string {
	if (!existsSync(memoryResultsFile)) return '';
	const text = readFileSync(memoryResultsFile, 'utf8');
	const start = text.indexOf(SUMMARY_START);
	const end = text.indexOf(SUMMARY_END);
	if (start === -1 || end < start) return '';
	const writtenBy = /^Written by .*$/m.exec(text)?.[0] ?? '';
	return [
		SECTION_START,
		'## Memory of large imports: page by page (bench/memory-results.md)',
		'',
		`${writtenBy.replace(/ Re-run it.*$/, '')} The method, every measurement and which way to import when: [memory-results.md](memory-results.md).`,
		'',
		text.slice(start + SUMMARY_START.length, end).trim(),
		SECTION_END,
	].join('\n');
}

/** Replaces the memory section of results.md, or appends it. */
export function upsertMemorySection(resultsFile: string, memoryResultsFile: string): void {
	const section = memorySection(memoryResultsFile);
	const text = existsSync(resultsFile) ? readFileSync(resultsFile, 'utf8') : '';
	const start = text.indexOf(SECTION_START);
	const end = text.indexOf(SECTION_END);
	const updated =
		start !== -1 && end > start
			? `${text.slice(0, start)}${section}${text.slice(end + SECTION_END.length)}`
			: `${text.trimEnd()}\n\n${section}\n`;
	writeFileSync(resultsFile, updated);
}
