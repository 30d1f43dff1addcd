/**
 * CPU cost of the package's signing code (nodes/shared), per call: signing one request and verifying
 * one webhook delivery with 1 KB and 100 KB bodies, plus JSON.parse of one full list page for scale.
 * 200 ms warm-up (which also sizes the rounds to about 60 ms), then 9 rounds; the median round counts.
 */
import { createHash } from 'node:crypto';

import type { IHttpRequestOptions } from 'n8n-workflow';

import { signRequestOptions } from '../nodes/shared/signRequestOptions';
import { computeSignature, unixTimestamp, verifySignature } from '../nodes/shared/signature';
import { startSandbox } from '../test/sandbox';
import { median } from './report';

/** `medianUs`: median over rounds of the mean time per call. */
export type MicroResult = { name: string; medianUs: number; minUs: number; maxUs: number; callsPerRound: number; rounds: number };

const ROUNDS = 9;
const SECRET = 'sandbox-secret-with-some-length-0123456789';
const CURSOR = 'eyJ2IjoxLCJrIjoiMjAyNS0wNi0wMVQxMjowMDowMC4wMDBaIiwicyI6OTk5MDB9.c2lnbmF0dXJlLXBhcnQtb2YtdGhlLWN1cnNvcg';
const LIST = { method: 'GET', baseURL: 'http://127.0.0.1:4010', url: '/api/v1/external/tickets', json: true } as const;

function measure(name: string, call: () => unknown): MicroResult {
	let sink: unknown;
	let calibration = 0;
	for (const warmUntil = performance.now() + 200; performance.now() < warmUntil; calibration++) sink = call();
	const callsPerRound = Math.max(10, Math.round((calibration * 60) / 200));
	const perCallUs = Array.from({ length: ROUNDS }, () => {
		const started = process.hrtime.bigint();
		for (let i = 0; i < callsPerRound; i++) sink = call();
		return Number(process.hrtime.bigint() - started) / 1e3 / callsPerRound;
	});
	if (sink === undefined) throw new Error(`${name} returned nothing`);
	return { name, medianUs: median(perCallUs), minUs: Math.min(...perCallUs), maxUs: Math.max(...perCallUs), callsPerRound, rounds: ROUNDS };
}

/** A webhook delivery of a JSON body of exactly `bytes` bytes, genuinely signed. */
function signedDelivery(bytes: number, nowMs: number) {
	const [head, tail] = ['{"id":"evt_1","event":"ticket.created","created_at":"2025-06-01T12:00:00.000Z","data":{"description":"', '"}}'];
	const body = Buffer.from(head + 'x'.repeat(bytes - head.length - tail.length) + tail);
	const [timestamp, pathWithQuery] = [unixTimestamp(nowMs), '/webhook/5c2a9d1e-support-ticket'];
	return { secret: SECRET, timestamp, signature: computeSignature(SECRET, { timestamp, method: 'POST', pathWithQuery, body }), method: 'POST', pathWithQuery, body, nowMs };
}

export async function measureSigningCosts(): Promise<MicroResult[]> {
	// One page of 100 tickets as the sandbox sends it (its own seed data, serialized once).
	const sandbox = await startSandbox({ seed: 100 });
	const page = JSON.stringify({ data: sandbox.store.listTickets(), meta: { per_page: 100, has_more: true, next_cursor: CURSOR } });
	await sandbox.stop();
	const getPage: IHttpRequestOptions = { ...LIST, qs: { per_page: 100, cursor: CURSOR }, returnFullResponse: true, ignoreHttpStatusErrors: true };
	const postTicket: IHttpRequestOptions = { ...LIST, method: 'POST', body: JSON.parse(signedDelivery(1024, 0).body.toString()) as IHttpRequestOptions['body'] };
	const credentials = { apiKey: 'sandbox-key', apiSecret: SECRET };
	const [delivery1k, delivery100k] = [signedDelivery(1024, Date.now()), signedDelivery(100 * 1024, Date.now())];
	const verify = (delivery: typeof delivery1k) => () => {
		if (!verifySignature(delivery).valid) throw new Error('a genuinely signed delivery was rejected');
		return true;
	};
	return [
		measure('sign one list request: computeSignature (GET, path with cursor, empty body)', () =>
			computeSignature(SECRET, { timestamp: unixTimestamp(Date.now()), method: 'GET', pathWithQuery: `/api/v1/external/tickets?per_page=100&cursor=${CURSOR}`, body: '' }),
		),
		measure('sign one list request as the credential does: signRequestOptions (GET, qs)', () => signRequestOptions(getPage, credentials, Date.now())),
		measure('sign one create request: signRequestOptions (POST, 1 KB JSON body)', () => signRequestOptions(postTicket, credentials, Date.now())),
		measure('verify one webhook delivery, 1 KB body: verifySignature', verify(delivery1k)),
		measure('verify one webhook delivery, 100 KB body: verifySignature', verify(delivery100k)),
		measure('for scale: sha256 of a 100 KB body alone', () => createHash('sha256').update(delivery100k.body).digest('hex')),
		measure(`for scale: JSON.parse of one list page (100 tickets, ${(page.length / 1024).toFixed(0)} KB)`, () => JSON.parse(page) as unknown),
	];
}
