import { AppLogger } from './app-logger';

describe('AppLogger', () => {
  function capture(levels: ('log' | 'debug' | 'warn' | 'error')[]) {
    const logger = new AppLogger();
    logger.setLogLevels(levels);
    const lines: string[] = [];
    jest.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
      lines.push(String(chunk));
      return true;
    });
    return { logger, lines };
  }

  afterEach(() => jest.restoreAllMocks());

  it('keeps route mapping and module initialization out of the log at the default level', () => {
    const { logger, lines } = capture(['error', 'warn', 'log']);
    logger.log('Mapped {/api/users, GET} route', 'RouterExplorer');
    logger.log('AppModule dependencies initialized', 'InstanceLoader');
    logger.log('Avatar Studio on http://localhost:3000', 'Main');
    expect(lines.join('')).not.toContain('Mapped');
    expect(lines.join('')).not.toContain('dependencies initialized');
    expect(lines.join('')).toContain('Avatar Studio on http://localhost:3000');
  });

  it('shows them at debug level', () => {
    const { logger, lines } = capture(['error', 'warn', 'log', 'debug']);
    logger.log('Mapped {/api/users, GET} route', 'RouterExplorer');
    expect(lines.join('')).toContain('Mapped {/api/users, GET} route');
  });
});
