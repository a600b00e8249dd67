<?php
// Runs deploy/webmail's Roundcube plugin outside Roundcube, for the integration test: the few
// Roundcube classes the plugin touches are stood in for here, and the hooks are called in the
// order Roundcube's login calls them. Settings come from the environment (PANEL247_*), the posted
// form from argv[1] (a query string). Prints every hook's answer as JSON.
declare(strict_types=1);

final class harness_config
{
    public function get(string $name, $default = null)
    {
        $map = [
            'panel247_redeem_url' => 'PANEL247_REDEEM_URL',
            'panel247_webmail_key' => 'PANEL247_WEBMAIL_KEY',
            'panel247_master_user' => 'PANEL247_MASTER_USER',
            'panel247_master_password' => 'PANEL247_MASTER_PASSWORD',
        ];
        $value = isset($map[$name]) ? getenv($map[$name]) : false;
        return $value === false ? $default : $value;
    }
}

final class rcmail
{
    public $config;
    private static $instance;

    public function kill_session()
    {
        $_SESSION = ['temp' => true];
    }

    public function get_user_name()
    {
        return $_SESSION['username'] ?? '';
    }

    public static function get_instance(): self
    {
        if (!self::$instance) {
            self::$instance = new self();
            self::$instance->config = new harness_config();
        }
        return self::$instance;
    }
}

class rcube
{
    public static $log = [];

    public static function write_log($name, $line)
    {
        self::$log[] = "{$name}: {$line}";
    }
}

final class rcube_utils
{
    const INPUT_POST = 1;

    public static function get_input_string($name, $source)
    {
        $value = $_POST[$name] ?? '';
        return is_string($value) ? trim($value) : '';
    }
}

abstract class rcube_plugin
{
    public $hooks = [];

    public function add_hook($hook, $callback)
    {
        $this->hooks[$hook] = $callback;
    }

    public function load_config($file = 'config.inc.php')
    {
    }

    public function run($hook, array $args): array
    {
        return isset($this->hooks[$hook]) ? call_user_func($this->hooks[$hook], $args) : $args;
    }
}

require dirname(__DIR__, 4) . '/deploy/webmail/panel247_signon/panel247_signon.php';

// argv[2]: a mailbox already logged in in this browser, if any
$_SESSION = isset($argv[2]) ? ['user_id' => 7, 'username' => $argv[2]] : [];
parse_str($argv[1] ?? '', $_POST);
$plugin = new panel247_signon();
$plugin->init();

$startup = $plugin->run('startup', ['task' => 'mail', 'action' => '']);
// What Roundcube passes in: the posted user, an empty password, its own request check failed.
$auth = $plugin->run('authenticate', [
    'host' => '127.0.0.1',
    'user' => trim((string) ($_POST['_user'] ?? '')),
    'pass' => (string) ($_POST['_pass'] ?? ''),
    'valid' => false,
    'cookiecheck' => true,
    'error' => null,
    'abort' => false,
]);
$loggedIn = !$auth['abort'] && $auth['valid'] && $auth['user'] !== '';
if ($loggedIn) {
    $_SESSION['user_id'] = 8;
    $_SESSION['username'] = $auth['user'];
    $plugin->run('login_after', []);
}
$storage = $plugin->run('storage_connect', ['host' => '127.0.0.1', 'user' => $auth['user']]);
// Roundcube's default smtp_user is "%u", replaced by the user name after the hook
$smtp = $plugin->run('smtp_connect', ['smtp_user' => '%u', 'smtp_pass' => '%p']);
$relay = $plugin->run('smtp_connect', ['smtp_user' => 'relay@provider.example', 'smtp_pass' => 'x']);

echo json_encode([
    'startup' => $startup,
    'auth' => $auth,
    'session' => (object) $_SESSION,
    'storage' => $storage,
    'smtp' => $smtp,
    'relay' => $relay,
    'log' => rcube::$log,
]), "\n";
