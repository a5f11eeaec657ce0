import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { echoResponder, startFakeAnthropic, type ScriptedResponse } from './index.js';

/**
 * Starts the fake on a port for manual runs and e2e:
 * `npx tsx test/fakes/anthropic-server/cli.ts --port 8787 [--script FILE] [--strict]`.
 * The script file is `{"responses": [...]}`; when they run out, the echo responder answers.
 */
const { values } = parseArgs({ options: { port: { type: 'string', default: '0' }, script: { type: 'string' }, strict: { type: 'boolean' } } });
const script = values.script ? (JSON.parse(readFileSync(values.script, 'utf8')) as { responses?: ScriptedResponse[] }) : {};
const fake = await startFakeAnthropic({ port: Number(values.port), strict: values.strict ?? false, respond: echoResponder });
fake.enqueue(...(script.responses ?? []));
process.stdout.write(`${JSON.stringify({ url: fake.url })}\n`);
const stop = () => void fake.close().then(() => process.exit(0));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
