import { createServer as createTcpServer, connect, type Server as TcpServer, type Socket } from 'node:net';

/**
 * A TCP relay between the server and PostgreSQL, so a test can take the database away from one server
 * (refuse connections, or accept them and never answer) without stopping the PostgreSQL others use.
 */
export class DatabaseRelay {
  private listener: TcpServer | undefined;
  private readonly sockets = new Set<Socket>();
  private silent = false;
  port = 0;

  constructor(private readonly target: { host: string; port: number }) {}

  async open(): Promise<void> {
    const listener = createTcpServer((client) => this.relay(client));
    await new Promise<void>((resolve) => listener.listen(this.port, '127.0.0.1', resolve));
    this.port = (listener.address() as { port: number }).port;
    this.listener = listener;
  }

  /** Every connection dropped and no new one accepted: the database is gone. */
  async cut(): Promise<void> {
    const listener = this.listener;
    this.listener = undefined;
    for (const socket of this.sockets) socket.destroy();
    if (listener) await new Promise<void>((resolve) => listener.close(() => resolve()));
  }

  /** Every connection dropped; new ones accepted and never answered: the database hangs. */
  async hang(): Promise<void> {
    await this.cut();
    this.silent = true;
    await this.open();
  }

  async restore(): Promise<void> {
    await this.cut();
    this.silent = false;
    await this.open();
  }

  private relay(client: Socket): void {
    this.track(client);
    if (this.silent) return;
    const upstream = connect(this.target.port, this.target.host);
    this.track(upstream);
    client.pipe(upstream);
    upstream.pipe(client);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  }

  private track(socket: Socket): void {
    this.sockets.add(socket);
    socket.on('error', () => undefined);
    socket.on('close', () => this.sockets.delete(socket));
  }
}
