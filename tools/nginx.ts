import { execFileSync, spawnSync, type ChildProcess } from 'node:child_process';
import { X509Certificate, createHash } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { exited, spawnChild } from './child-processes';

/**
 * nginx in front of a fleet, configured with the repository's deploy/nginx/lottery.conf.template
 * written by deploy/nginx/render.sh as an operator writes it, for the reverse-proxy
 * test: a self-signed certificate made at start (openssl), a temporary directory for everything
 * nginx writes, ports on loopback. nginx runs in the foreground as a child of this process;
 * `stop()` ends it (and its workers) and removes the directory.
 */

/** What writes the deployment's file from its template, as the operator runs it. */
const RENDER = fileURLToPath(new URL('../deploy/nginx/render.sh', import.meta.url));

export interface NginxOptions {
  /** Ports on 127.0.0.1: HTTPS, and plain HTTP (which redirects). */
  readonly httpsPort: number;
  readonly httpPort: number;
  /** Each process's `host:port`, in order (process n is /node-n/). */
  readonly processes: readonly [string, string, string];
}

const START_TIMEOUT_MS = 10_000;

const INSTALL = 'apt-get install nginx libnginx-mod-http-brotli-filter gettext-base (docs/operations.md, "The reverse proxy")';

/** Debian's brotli filter module, where its nginx keeps dynamic modules (its `--modules-path`). */
function brotliModule(): string {
  // `nginx -V` writes its build's arguments to stderr.
  const version = spawnSync('nginx', ['-V'], { encoding: 'utf8' });
  if (version.error) throw new Error(`nginx is not installed: ${INSTALL}`);
  const module = join(/--modules-path=(\S+)/.exec(version.stderr)?.[1] ?? '/usr/lib/nginx/modules', 'ngx_http_brotli_filter_module.so');
  if (!existsSync(module)) throw new Error(`nginx's brotli module is not installed (${module}): ${INSTALL}`);
  return module;
}

/** A self-signed certificate for 127.0.0.1 and localhost, valid for a day. */
function selfSignedCertificate(dir: string): { certificate: string; key: string } {
  const certificate = join(dir, 'certificate.pem');
  const key = join(dir, 'key.pem');
  execFileSync('openssl', [
    'req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '1',
    '-keyout', key, '-out', certificate, '-subj', '/CN=localhost', '-addext', 'subjectAltName=IP:127.0.0.1,DNS:localhost',
  ], { stdio: 'ignore' });
  return { certificate, key };
}

/**
 * The main configuration around the deployment's file: what Debian's /etc/nginx/nginx.conf
 * gives an http-context file in conf.d/ (the brotli module loaded, gzip on), with every path in
 * the temporary directory.
 */
function mainConfiguration(dir: string): string {
  return [
    `pid ${join(dir, 'nginx.pid')};`,
    `load_module ${brotliModule()};`,
    'worker_processes 1;',
    'events { worker_connections 512; }',
    'http {',
    `  access_log ${join(dir, 'access.log')};`,
    ...['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((kind) => `  ${kind}_temp_path ${join(dir, 'temp', kind)};`),
    '  gzip on;',
    `  include ${join(dir, 'lottery.conf')};`,
    '}',
    '',
  ].join('\n');
}

/**
 * Writes into `dir` the certificate, the deployment's file as render.sh writes it for these
 * ports and processes, and the main configuration around it; answers the certificate (PEM).
 */
function configure(dir: string, options: NginxOptions): string {
  // nginx's workers (nobody, when started by root) write their buffers under it.
  chmodSync(dir, 0o755);
  mkdirSync(join(dir, 'temp'));
  const { certificate, key } = selfSignedCertificate(dir);
  const values = {
    LOTTERY_SERVER_NAME: '127.0.0.1 localhost',
    LOTTERY_HTTPS_LISTEN: `127.0.0.1:${options.httpsPort}`,
    LOTTERY_HTTP_LISTEN: `127.0.0.1:${options.httpPort}`,
    LOTTERY_CERTIFICATE: certificate,
    LOTTERY_CERTIFICATE_KEY: key,
    LOTTERY_PROCESS_1: options.processes[0],
    LOTTERY_PROCESS_2: options.processes[1],
    LOTTERY_PROCESS_3: options.processes[2],
  };
  writeFileSync(join(dir, 'lottery.conf'), execFileSync(RENDER, { env: { ...process.env, ...values }, encoding: 'utf8' }));
  writeFileSync(join(dir, 'nginx.conf'), mainConfiguration(dir));
  return readFileSync(certificate, 'utf8');
}

async function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });
}

export class Nginx {
  private constructor(
    readonly dir: string,
    private readonly process: ChildProcess,
    /** The self-signed certificate, PEM: what a client trusts. */
    readonly certificate: string,
    /** The certificate's SPKI SHA-256, base64: what Chromium's --ignore-certificate-errors-spki-list takes. */
    readonly spkiHash: string,
    /** https://127.0.0.1:<port> */
    readonly origin: string,
  ) {}

  /** The deployment's file rendered for these ports and processes, under nginx, answering. */
  static async start(options: NginxOptions): Promise<Nginx> {
    const dir = mkdtempSync(join(tmpdir(), 'lottery-nginx-'));
    let child: ChildProcess | undefined;
    try {
      const pem = configure(dir, options);
      const args = ['-p', dir, '-c', join(dir, 'nginx.conf'), '-e', join(dir, 'error.log')];
      execFileSync('nginx', ['-t', '-q', ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
      child = spawnChild('nginx', [...args, '-g', 'daemon off;'], { stdio: 'ignore' }, 'SIGTERM');
      const spki = new X509Certificate(pem).publicKey.export({ type: 'spki', format: 'der' });
      const nginx = new Nginx(dir, child, pem, createHash('sha256').update(spki).digest('base64'), `https://127.0.0.1:${options.httpsPort}`);
      const until = Date.now() + START_TIMEOUT_MS;
      while (!(await accepts(options.httpsPort))) {
        if (child.exitCode !== null || Date.now() > until) throw new Error(`nginx did not start:\n${nginx.errors()}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      return nginx;
    } catch (err) {
      child?.kill('SIGTERM');
      if (child) await exited(child);
      rmSync(dir, { recursive: true, force: true });
      throw err;
    }
  }

  /** nginx's error log (warnings included), for a failure's report. */
  errors(): string {
    const log = join(this.dir, 'error.log');
    return existsSync(log) ? readFileSync(log, 'utf8') : '';
  }

  /** SIGTERM: the master stops its workers and exits; then its directory goes. */
  async stop(): Promise<void> {
    if (this.process.exitCode === null && this.process.signalCode === null) {
      this.process.kill('SIGTERM');
      await exited(this.process);
    }
    rmSync(this.dir, { recursive: true, force: true });
  }
}
