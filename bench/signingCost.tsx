/**
 * CPU cost of the package's signing code (nodes/shared), per call: signing one request and
 * verifying one webhook delivery with 1 KB and 100 KB bodies, plus JSON.parse of one full list
 * page for scale. Warm-up first, then rounds of many calls; the median round is reported.
 *
 *   node build/bench/signingCost.js
 */
import { createHash } from 'node:crypto';

import type { IHttpRequestOptions } from 'n8n-workflow';

import { signRequestOptions } from '../nodes/shared/signRequestOptions';
import { computeSignature, unixTimestamp, verifySignature } from '../nodes/shared/signature';
import { startSandbox } from '../test/sandbox';
import { median } from './report';

export interface MicroResult {
	name: string;
	/** Median over rounds of the mean time per call, microseconds. */
	medianUs: number;
	minUs: number;
	maxUs: number;
	callsPerRound: number;
	rounds: number;
}

const ROUNDS = 9;
const ROUND_TARGET_MS = 60;
const SECRET = 'sandbox-secret-with-some-length-0123456789';
const CURSOR = 'eyJ2IjoxLCJrIjoiMjAyNS0wNi0wMVQxMjowMDowMC4wMDBaIiwicyI6OTk5MDB9.c2lnbmF0dXJlLXBhcnQtb2YtdGhlLWN1cnNvcg';
const TICKETS_URL = 'http://127.0.0.1:4010';

/** Calibrates the round size on a warm function, then times ROUNDS rounds. */
function measure(name: string, call: () => unknown): MicroResult {
	let sink: unknown;
	const warmUntil = performance.now() + 200;
	let calibration = 0;
	while (performance.now() < warmUntil) {
		sink = call();
		calibration++;
	}
	const callsPerRound = Math.max(10, Math.round((calibration * ROUND_TARGET_MS) / 200));
	const perCallUs: number[] = [];
	for (let round = 0; round < ROUNDS; round++) {
		const started = process.hrtime.bigint();
		for (let i = 0; i < callsPerRound; i++) sink = call();
		perCallUs.push(Number(process.hrtime.bigint() - started) / 1e3 / callsPerRound);
	}
	if (sink === undefined) throw new Error(`${name} returned nothing`);
	return { name, medianUs: median(perCallUs), minUs: Math.min(...perCallUs), maxUs: Math.max(...perCallUs), callsPerRound, rounds: ROUNDS };
}

/** A JSON body of exactly `bytes` bytes, as a webhook delivery's raw bytes. */
function deliveryBody(bytes: number): Buffer {
	const [head, tail] = ['{"id":"evt_1","event":"ticket.created","created_at":"2025-06-01T12:00:00.000Z","data":{"description":"', '"}}'];
	return Buffer.from(head + 'x'.repeat(bytes - head.length - tail.length) + tail);
}

function signedDelivery(body: Buffer, nowMs: number) {
	const timestamp = unixTimestamp(nowMs);
	const pathWithQuery = '/webhook/5c2a9d1e-support-ticket';
	const signature = computeSignature(SECRET, { timestamp, method: 'POST', pathWithQuery, body });
	return { secret: SECRET, timestamp, signature, method: 'POST', pathWithQuery, body, nowMs };
}

/** One page of 100 tickets as the sandbox sends it (its own seed data, serialized once). */
async function listPageText(): Promise<string> {
	const sandbox = await startSandbox({ seed: 100 });
	try {
		const data = sandbox.store.listTickets();
		return JSON.stringify({ data, meta: { per_page: 100, has_more: true, next_cursor: CURSOR } });
	} finally {
		await sandbox.stop();
	}
}

export async function measureSigningCosts(): Promise<MicroResult[]> {
	const nowMs = Date.now();
	const getPage: IHttpRequestOptions = {
		method: 'GET',
		baseURL: TICKETS_URL,
		url: '/api/v1/external/tickets',
		qs: { per_page: 100, cursor: CURSOR },
		json: true,
		returnFullResponse: true,
		ignoreHttpStatusErrors: true,
	};
	const createBody = JSON.parse(deliveryBody(1024).toString()) as IHttpRequestOptions['body'];
	const postTicket: IHttpRequestOptions = { method: 'POST', baseURL: TICKETS_URL, url: '/api/v1/external/tickets', body: createBody, json: true };
	const credentials = { apiKey: 'sandbox-key', apiSecret: SECRET };
	const delivery1k = signedDelivery(deliveryBody(1024), nowMs);
	const delivery100k = signedDelivery(deliveryBody(100 * 1024), nowMs);
	const page = await listPageText();
	const check = (valid: boolean): boolean => {
		if (!valid) throw new Error('a genuinely signed delivery was rejected');
		return valid;
	};

	return [
		measure('sign one list request: computeSignature (GET, path with cursor, empty body)', () =>
			computeSignature(SECRET, { timestamp: unixTimestamp(Date.now()), method: 'GET', pathWithQuery: `/api/v1/external/tickets?per_page=100&cursor=${CURSOR}`, body: '' }),
		),
		measure('sign one list request as the credential does: signRequestOptions (GET, qs)', () => signRequestOptions(getPage, credentials, Date.now())),
		measure('sign one create request: signRequestOptions (POST, 1 KB JSON body)', () => signRequestOptions(postTicket, credentials, Date.now())),
		measure('verify one webhook delivery, 1 KB body: verifySignature', () => check(verifySignature(delivery1k).valid)),
		measure('verify one webhook delivery, 100 KB body: verifySignature', () => check(verifySignature(delivery100k).valid)),
		measure('for scale: sha256 of a 100 KB body alone', () => createHash('sha256').update(delivery100k.body).digest('hex')),
		measure(`for scale: JSON.parse of one list page (100 tickets, ${(page.length / 1024).toFixed(0)} KB)`, () => JSON.parse(page) as unknown),
	];
}

if (require.main === module) {
	void measureSigningCosts().then((results) => results.forEach((r) => console.log(`${r.medianUs.toFixed(2).padStart(9)} µs  ${r.name}`)));
}
