import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, unknownPanelVariables } from '../../src/config.ts';

describe('configuration', () => {
  it('has working defaults for the embedded start', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      host: '127.0.0.1',
      port: 8247,
      basePath: '/p247/',
      session: { idleMinutes: 30, absoluteHours: 12 },
      captcha: { provider: 'altcha' },
    });
    expect(config.databaseUrl).toBeUndefined();
    expect(config.dataDir).toMatch(/\/data$/);
  });

  it('reads PORT, HOST and PANEL_* variables', () => {
    const config = loadConfig({
      PORT: '9000',
      HOST: '0.0.0.0',
      PANEL_DATABASE_URL: 'postgres://u@localhost/db',
      PANEL_SESSION_IDLE_MINUTES: '5',
      PANEL_CAPTCHA: 'none',
      PANEL_ALLOWED_ORIGINS: 'https://panel.example,https://other.example',
    });
    expect(config).toMatchObject({ port: 9000, host: '0.0.0.0', databaseUrl: 'postgres://u@localhost/db' });
    expect(config.session.idleMinutes).toBe(5);
    expect(config.allowedOrigins).toEqual(['https://panel.example', 'https://other.example']);
  });

  it('lists every problem at once, naming the variables', () => {
    try {
      loadConfig({ PORT: 'abc', PANEL_DATABASE_URL: 'mysql://x', PANEL_BASE_PATH: 'p247', PANEL_CAPTCHA: 'recaptcha' });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      const problems = (error as ConfigError).problems.join('\n');
      expect(problems).toContain('port (PORT)');
      expect(problems).toContain('databaseUrl (PANEL_DATABASE_URL)');
      expect(problems).toContain('basePath (PANEL_BASE_PATH)');
      expect(problems).toContain('captcha.secret (PANEL_CAPTCHA_SECRET): required for recaptcha');
      expect((error as ConfigError).problems).toHaveLength(4);
    }
  });

  it('runs the node agent in the panel by default; one of its own needs PostgreSQL and its address', () => {
    expect(loadConfig({}).agent.mode).toBe('embedded');
    // the node's safety-net sync: hourly unless set, 0 turns it off
    expect(loadConfig({}).agent.syncSeconds).toBe(3600);
    expect(loadConfig({ PANEL_AGENT_SYNC_SECONDS: '0' }).agent.syncSeconds).toBe(0);
    expect(() => loadConfig({ PANEL_AGENT: 'separate' })).toThrow(
      'agent.mode (PANEL_AGENT): separate needs PostgreSQL (PANEL_DATABASE_URL)',
    );
    const postgres = { PANEL_AGENT: 'separate', PANEL_DATABASE_URL: 'postgres://u@localhost/db' };
    expect(() => loadConfig(postgres)).toThrow("agent.url (PANEL_AGENT_URL): separate needs the agent's address");
    expect(loadConfig({ ...postgres, PANEL_AGENT_URL: 'http://10.0.0.2:8247' }).agent).toMatchObject({
      mode: 'separate',
      url: 'http://10.0.0.2:8247',
    });
    for (const url of ['10.0.0.2:8247', 'https://10.0.0.2:8247', 'http://10.0.0.2', 'http://10.0.0.2:8247/x'])
      expect(() => loadConfig({ ...postgres, PANEL_AGENT_URL: url })).toThrow('expected http://host:port');
  });

  it('keeps databases embedded by default and needs a URL for MariaDB', () => {
    expect(loadConfig({}).databases).toMatchObject({
      driver: 'embedded',
      namePrefix: '',
      maxPerService: 5,
      localHosts: ['localhost', '127.0.0.1'],
      dumpCommand: 'mariadb-dump',
      phpmyadminUrl: '/phpmyadmin/panel247-signon.php',
    });
    const config = loadConfig({
      PANEL_DATABASES_DRIVER: 'mariadb',
      PANEL_DATABASES_URL: 'mysql://root@127.0.0.1:3306',
      PANEL_DATABASES_NAME_PREFIX: 'e2e1_',
      PANEL_DATABASES_MAX_PER_SERVICE: '2',
      PANEL_DATABASES_LOCAL_HOSTS: 'localhost,10.0.0.5',
      PANEL_PHPMYADMIN_KEY: 'k'.repeat(32),
    });
    expect(config.databases).toMatchObject({
      driver: 'mariadb',
      namePrefix: 'e2e1_',
      maxPerService: 2,
      localHosts: ['localhost', '10.0.0.5'],
    });
    try {
      loadConfig({
        PANEL_DATABASES_DRIVER: 'mariadb',
        PANEL_DATABASES_NAME_PREFIX: 'Bad-Prefix',
        PANEL_DATABASES_LOCAL_HOSTS: "evil'@'%",
        PANEL_PHPMYADMIN_KEY: 'short',
      });
      expect.unreachable();
    } catch (error) {
      const problems = (error as ConfigError).problems.join('\n');
      expect(problems).toContain('databases.url (PANEL_DATABASES_URL): required for the mariadb driver');
      expect(problems).toContain('databases.namePrefix (PANEL_DATABASES_NAME_PREFIX)');
      expect(problems).toContain('databases.localHosts');
      expect(problems).toContain('databases.phpmyadminKey (PANEL_PHPMYADMIN_KEY)');
    }
  });

  it('reports an unreadable config file', () => {
    expect(() => loadConfig({ PANEL_CONFIG_FILE: '/nonexistent/panel.json' })).toThrow(/PANEL_CONFIG_FILE/);
  });
});

describe('unknown PANEL_* variables', () => {
  it('are listed, with the known name a typo was near', () => {
    const env = {
      PANEL_DATA_DIR: '/tmp/x',
      PANEL_HOSTING_UID: '1000',
      PANEL_CONFIG_FILE: '/etc/panel247.json',
      PANEL_TEST_PG_URL: 'postgres://x',
      PANEL_DATABSE_URL: 'postgres://typo',
      PANEL_SOMETHING_ELSE: '1',
      HOME: '/root',
    };
    expect(unknownPanelVariables(env)).toEqual([
      'PANEL_DATABSE_URL (did you mean PANEL_DATABASE_URL?)',
      'PANEL_SOMETHING_ELSE',
    ]);
  });

  it('PANEL_HOSTING_UID and GID, named in the docs, are read', () => {
    const config = loadConfig({
      PANEL_DATA_DIR: '/tmp/p247-uid',
      PANEL_HOSTING_UID: '1000',
      PANEL_HOSTING_GID: '1001',
    });
    expect([config.hosting.uid, config.hosting.gid]).toEqual([1000, 1001]);
  });
});
