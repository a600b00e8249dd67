<?php

/**
 * Panel247 provisioning ("server") module for WHMCS.
 *
 * WHMCS calls `panel247_<Action>(array $params)` with the service's and the server's details;
 * each action is one call to Panel247's provisioning API (`/p247/provider/`) and answers WHMCS
 * the way it expects: 'success' or an error string (the panel's own errors, in English).
 *
 * No `declare(strict_types=1)` here: WHMCS includes this file and hands it whatever types its
 * database gives (ids as strings, "on" for a ticked box), so the values are converted on purpose
 * below instead. The client in lib/ is strict.
 *
 * The provider's set-up, and what each action does on the panel: integrations/whmcs/README.md in
 * Panel247's repository.
 */

if (!defined('WHMCS')) {
    die('This file cannot be accessed directly');
}

require_once __DIR__ . '/lib/Panel247Client.php';

use Panel247\Whmcs\Panel247Client;
use Panel247\Whmcs\Panel247Error;

const PANEL247_MODULE = 'panel247';
const PANEL247_TIMEOUT_SECONDS = 30;
const PANEL247_BYTES_PER_MB = 1048576;

function panel247_MetaData(): array
{
    return [
        'DisplayName' => 'Panel247',
        'APIVersion' => '1.1',
        'RequiresServer' => true,
        'DefaultSSLPort' => '443',
        'DefaultNonSSLPort' => '80',
        // The panel carries the provider's brand: the customer sees no "Panel247" here.
        'ServiceSingleSignOnLabel' => 'Log in to the control panel',
    ];
}

/** configoption1 is the plan, configoption2 the brand: keep this order, WHMCS stores by position. */
function panel247_ConfigOptions(): array
{
    return [
        'Plan' => [
            'FriendlyName' => 'Plan',
            'Type' => 'text',
            'Size' => '30',
            'Default' => '',
            'Description' => 'The Panel247 plan name (npm run panel -- plan list). Empty: the panel\'s default plan.',
        ],
        'Brand' => [
            'FriendlyName' => 'Brand',
            'Type' => 'text',
            'Size' => '30',
            'Default' => '',
            'Description' => 'Optional: the slug of the brand the customer\'s account is made in. Empty: the default brand.',
        ],
    ];
}

function panel247_CreateAccount(array $params): string
{
    return panel247_runAction(__FUNCTION__, $params, static function (Panel247Client $client) use ($params): void {
        $fields = [
            'domain' => panel247_domainOf($params),
            'username' => panel247_text($params['username'] ?? ''),
            'password' => panel247_text($params['password'] ?? ''),
            'email' => panel247_text($params['clientsdetails']['email'] ?? ''),
            'plan' => panel247_planOf($params),
            'brand' => panel247_brandOf($params),
        ];
        panel247_post($client, $params, 'createaccount', 'account/create/', $fields);
    });
}

function panel247_SuspendAccount(array $params): string
{
    return panel247_runAction(__FUNCTION__, $params, static function (Panel247Client $client) use ($params): void {
        $fields = ['reason' => panel247_text($params['suspendreason'] ?? '')];
        panel247_post($client, $params, 'suspendaccount', panel247_servicePath($params, 'suspend'), $fields);
    });
}

function panel247_UnsuspendAccount(array $params): string
{
    return panel247_runAction(__FUNCTION__, $params, static function (Panel247Client $client) use ($params): void {
        panel247_post($client, $params, 'unsuspendaccount', panel247_servicePath($params, 'unsuspend'), []);
    });
}

function panel247_TerminateAccount(array $params): string
{
    return panel247_runAction(__FUNCTION__, $params, static function (Panel247Client $client) use ($params): void {
        $data = panel247_post($client, $params, 'terminateaccount', panel247_servicePath($params, 'terminate'), []);
        // `terminating`: the panel goes on with it (a large last backup) and finishes on its own
        $termination = is_array($data) ? ($data['termination'] ?? null) : null;
        if (is_array($termination) && ($termination['state'] ?? '') === 'failed') {
            throw new Panel247Error('The panel could not finish the termination: ' . (string) ($termination['error'] ?? ''));
        }
    });
}

/** Called for upgrades and downgrades: the new product's Plan option is the plan to move to. */
function panel247_ChangePackage(array $params): string
{
    return panel247_runAction(__FUNCTION__, $params, static function (Panel247Client $client) use ($params): void {
        $fields = ['plan' => panel247_planOf($params)];
        panel247_post($client, $params, 'changepackage', panel247_servicePath($params, 'plan'), $fields);
    });
}

/** The service's owner user on the panel gets WHMCS's new password. */
function panel247_ChangePassword(array $params): string
{
    return panel247_runAction(__FUNCTION__, $params, static function (Panel247Client $client) use ($params): void {
        $fields = ['password' => panel247_text($params['password'] ?? '')];
        panel247_post($client, $params, 'changepassword', panel247_servicePath($params, 'password'), $fields);
    });
}

/** A one-time link into the panel, valid for about a minute: WHMCS redirects to it at once. */
function panel247_ServiceSingleSignOn(array $params): array
{
    $url = '';
    $error = panel247_runAction(__FUNCTION__, $params, static function (Panel247Client $client) use ($params, &$url): void {
        // Every sign-on must mint a new link: a key repeated from an earlier sign-on would be
        // answered with that earlier link, already spent. So the key gets a nonce of its own.
        $nonce = ['nonce' => bin2hex(random_bytes(16))];
        $data = panel247_post($client, $params, 'servicesinglesignon', panel247_servicePath($params, 'login-link'), [], $nonce);
        $url = is_array($data) && is_string($data['url'] ?? null) ? $data['url'] : '';
        if (preg_match('#^https?://#i', $url) !== 1) {
            throw new Panel247Error('Panel247 answered the sign-on without a link to follow');
        }
    });
    return $error === 'success'
        ? ['success' => true, 'redirectTo' => $url]
        : ['success' => false, 'errorMsg' => $error];
}

/**
 * WHMCS's daily cron calls this once per server: the disk and traffic of every service the panel
 * has, written into the services of this server with the same domain (in MB; 0 is unlimited).
 *
 * @param (callable(int $serverId, string $domain, array<string, int> $usage): void)|null $writeUsage
 *     how one service's row is written; WHMCS's database when null. Tests pass their own.
 * @return string 'success' or the errors (WHMCS only logs it)
 */
function panel247_UsageUpdate(array $params, ?callable $writeUsage = null): string
{
    $writeUsage ??= 'panel247_writeUsageToWhmcs';
    return panel247_runAction(__FUNCTION__, $params, static function (Panel247Client $client) use ($params, $writeUsage): void {
        $serverId = (int) ($params['serverid'] ?? 0);
        if ($serverId <= 0) {
            throw new Panel247Error('WHMCS passed no server id to update the usage of');
        }
        $data = $client->get('usage/');
        $services = is_array($data) && is_array($data['services'] ?? null) ? $data['services'] : null;
        if ($services === null) {
            throw new Panel247Error('Panel247 answered the usage without a list of services');
        }
        $failures = [];
        foreach ($services as $service) {
            $failure = panel247_writeServiceUsage($serverId, $service, $writeUsage);
            if ($failure !== null) {
                $failures[] = $failure;
            }
        }
        if ($failures !== []) {
            throw new Panel247Error(implode('; ', $failures));
        }
    });
}

/** @return array{success: bool, error: string} */
function panel247_TestConnection(array $params): array
{
    $error = panel247_runAction(__FUNCTION__, $params, static function (Panel247Client $client): void {
        $data = $client->get('ping/');
        if (!is_array($data) || ($data['panel'] ?? null) !== 'Panel247') {
            throw new Panel247Error('The server answered, but not as Panel247\'s provisioning API');
        }
    });
    return $error === 'success'
        ? ['success' => true, 'error' => '']
        : ['success' => false, 'error' => $error];
}

// ---------------------------------------------------------------------------------------------
// Helpers. Not module commands: WHMCS calls only the functions above (custom ones must be listed
// in a *CustomButtonArray, and this module lists none).

/**
 * Run one action against the panel: 'success', or the message WHMCS should show. Each call to the
 * panel is logged by the client's logger; a failed action is logged once more with its outcome,
 * so that the module log also shows what never reached the panel (no hostname, no token) and what
 * went wrong after its answer (a usage row not written).
 *
 * @param string $function the module function (__FUNCTION__): its action names the log entries
 * @param callable(Panel247Client): void $work
 */
function panel247_runAction(string $function, array $params, callable $work): string
{
    $action = substr($function, strlen(PANEL247_MODULE . '_'));
    try {
        $work(panel247_clientFor($action, $params));
        return 'success';
    } catch (Panel247Error $error) {
        $message = $error->getMessage();
    } catch (Throwable $error) {
        // A bug of this module or of PHP's set-up: say where, WHMCS shows nothing better.
        $message = 'Panel247 module error: ' . $error->getMessage();
    }
    panel247_log($action, panel247_maskedParams($params), $message, null, panel247_secretsOf($params));
    return $message;
}

function panel247_clientFor(string $action, array $params): Panel247Client
{
    $secrets = panel247_secretsOf($params);
    $logger = static function (
        string $method,
        string $url,
        array $fields,
        ?string $idempotencyKey,
        string $raw,
        mixed $decoded,
    ) use ($action, $secrets): void {
        $request = ['method' => $method, 'url' => $url, 'fields' => panel247_maskedFields($fields)];
        if ($idempotencyKey !== null) {
            $request['idempotencyKey'] = $idempotencyKey;
        }
        // A sign-on link is a credential for its minute: it stays out of the log too.
        $link = is_array($decoded) && is_string($decoded['data']['url'] ?? null)
            ? panel247_secretForms($decoded['data']['url'])
            : [];
        panel247_log($action, $request, $raw, $decoded, array_merge($secrets, $link));
    };
    return new Panel247Client(
        panel247_baseUrlOf($params),
        panel247_tokenOf($params),
        PANEL247_TIMEOUT_SECONDS,
        true,
        $logger,
    );
}

/**
 * POST an action with its Idempotency-Key; returns the envelope's data.
 *
 * @param array<string, string> $fields
 * @param array<string, string> $keyExtra mixed into the key only, never sent
 */
function panel247_post(
    Panel247Client $client,
    array $params,
    string $action,
    string $path,
    array $fields,
    array $keyExtra = [],
): mixed {
    $key = panel247_idempotencyKey($params, $action, $path, $fields + $keyExtra);
    return $client->post($path, $fields, $key);
}

/**
 * `whmcs-{serviceid}-{action}-{32 hex}`: the same when WHMCS runs the same action for the same
 * service with the same parameters again (a retry, e.g. from its module queue after a lost
 * answer), so the panel answers it from its record instead of doing it twice; another one as
 * soon as anything it sends differs (a new password, another plan or domain).
 *
 * The digest is an HMAC-SHA256 keyed with the provider token rather than a bare SHA-256: the
 * parameters hold the customer's password, and the key is logged and stored on the panel, where
 * a bare hash of a known domain, user and e-mail plus a weak password could be guessed offline.
 */
function panel247_idempotencyKey(array $params, string $action, string $path, array $parameters): string
{
    $serviceId = (int) ($params['serviceid'] ?? 0);
    if ($serviceId <= 0) {
        throw new Panel247Error('WHMCS passed no service id for this action');
    }
    $digest = hash_hmac('sha256', panel247_canonical($path, $parameters), panel247_tokenOf($params));
    return 'whmcs-' . $serviceId . '-' . $action . '-' . substr($digest, 0, 32);
}

/**
 * The path and the parameters, sorted by name, each length-prefixed: byte-exact whatever the
 * text encoding, and no two different requests give the same string.
 *
 * @param array<string, string> $parameters
 */
function panel247_canonical(string $path, array $parameters): string
{
    ksort($parameters, SORT_STRING);
    $canonical = strlen($path) . ':' . $path;
    foreach ($parameters as $name => $value) {
        $canonical .= ';' . strlen((string) $name) . ':' . $name . '=' . strlen($value) . ':' . $value;
    }
    return $canonical;
}

/**
 * `{http|https}://{host}[:{port}]/p247/provider/`. The hostname wins over the IP; a scheme or a
 * trailing slash typed into the hostname is forgiven, and so is a `host:port` there when the port
 * field is empty.
 */
function panel247_baseUrlOf(array $params): string
{
    $secure = panel247_isTicked($params['serversecure'] ?? false);
    $host = trim(panel247_text($params['serverhostname'] ?? ''));
    if ($host === '') {
        $host = trim(panel247_text($params['serverip'] ?? ''));
    }
    $host = rtrim((string) preg_replace('#^https?://#i', '', $host), '/');
    $port = (int) ($params['serverport'] ?? 0);
    if ($port === 0 && preg_match('/^([^:\[\]]+):(\d{1,5})$/', $host, $match) === 1) {
        $host = $match[1];
        $port = (int) $match[2];
    }
    if ($host === '') {
        throw new Panel247Error('The server has no hostname or IP address: set it in WHMCS (System Settings > Servers)');
    }
    return ($secure ? 'https' : 'http') . '://' . panel247_urlHost($host) . panel247_urlPort($port, $secure)
        . '/p247/provider/';
}

/** An IPv6 address goes in brackets; anything else must look like a hostname or an IPv4 address. */
function panel247_urlHost(string $host): string
{
    $bare = trim($host, '[]');
    if (filter_var($bare, FILTER_VALIDATE_IP, FILTER_FLAG_IPV6) !== false) {
        return '[' . $bare . ']';
    }
    if (preg_match('/^[A-Za-z0-9]([A-Za-z0-9.-]*[A-Za-z0-9])?$/', $host) !== 1) {
        throw new Panel247Error('The server\'s hostname "' . $host . '" is not a hostname or an IP address');
    }
    return $host;
}

/** The port only when it is not the scheme's own (WHMCS fills in 443 or 80 by default). */
function panel247_urlPort(int $port, bool $secure): string
{
    if ($port === 0 || $port === ($secure ? 443 : 80)) {
        return '';
    }
    if ($port < 1 || $port > 65535) {
        throw new Panel247Error('The server\'s port ' . $port . ' is not a port number');
    }
    return ':' . $port;
}

/** The Access Hash, or the password when the Access Hash is empty; WHMCS's text area may add a newline. */
function panel247_tokenOf(array $params): string
{
    $token = trim(panel247_text($params['serveraccesshash'] ?? ''));
    if ($token === '') {
        $token = trim(panel247_text($params['serverpassword'] ?? ''));
    }
    if ($token === '') {
        throw new Panel247Error(
            'The server has no token: put a Panel247 provider token (npm run panel -- provider token add whmcs)'
            . ' in its Access Hash'
        );
    }
    if (preg_match('/[\x00-\x20\x7f]/', $token) === 1) {
        throw new Panel247Error('The server\'s Access Hash has spaces or line breaks inside: paste the provider token alone');
    }
    return $token;
}

/** `service/{domain}/{action}/`, the domain URL-encoded. */
function panel247_servicePath(array $params, string $action): string
{
    return 'service/' . rawurlencode(panel247_domainOf($params)) . '/' . $action . '/';
}

function panel247_domainOf(array $params): string
{
    $domain = trim(panel247_text($params['domain'] ?? ''));
    // A domain of dots would be a path segment of its own ("..").
    if (trim($domain, '.') === '') {
        throw new Panel247Error('The service has no domain: set it on the service in WHMCS');
    }
    return $domain;
}

/** configoption1; empty asks for the panel's default plan. */
function panel247_planOf(array $params): string
{
    return trim(panel247_text($params['configoption1'] ?? ''));
}

/** configoption2; empty is the panel's default brand. */
function panel247_brandOf(array $params): string
{
    return trim(panel247_text($params['configoption2'] ?? ''));
}

/**
 * One service of the panel's usage answer written through $writeUsage; null, or why it was not.
 *
 * @param callable(int, string, array<string, int>): void $writeUsage
 */
function panel247_writeServiceUsage(int $serverId, mixed $service, callable $writeUsage): ?string
{
    $domain = is_array($service) && is_string($service['domain'] ?? null) ? $service['domain'] : '';
    if ($domain === '') {
        return 'Panel247 listed a service without a domain in its usage';
    }
    try {
        $writeUsage($serverId, $domain, panel247_usageRow($service));
        return null;
    } catch (Throwable $error) {
        // One service's row must not keep the others from being written.
        return 'Usage of ' . $domain . ' not written: ' . $error->getMessage();
    }
}

/**
 * tblhosting's usage columns, in MB; a limit the panel does not have (null) is 0, which WHMCS shows
 * as unlimited.
 *
 * @return array{diskusage: int, disklimit: int, bwusage: int, bwlimit: int}
 */
function panel247_usageRow(array $service): array
{
    return [
        'diskusage' => panel247_megabytes($service['diskBytes'] ?? 0),
        'disklimit' => panel247_megabytes($service['diskLimitBytes'] ?? null),
        'bwusage' => panel247_megabytes($service['trafficBytes'] ?? 0),
        'bwlimit' => panel247_megabytes($service['trafficLimitBytes'] ?? null),
    ];
}

/** Bytes to whole MB (1 MB = 1,048,576 bytes, as the panel's plan sizes), rounded to the nearest. */
function panel247_megabytes(mixed $bytes): int
{
    if (!is_int($bytes) && !is_float($bytes)) {
        return 0;
    }
    return (int) round(max(0, $bytes) / PANEL247_BYTES_PER_MB);
}

/**
 * The one place this module writes WHMCS's database, as WHMCS documents for UsageUpdate: every
 * service of this server with that domain (matched by MySQL's case-insensitive collation).
 *
 * @param array<string, int> $usage
 */
function panel247_writeUsageToWhmcs(int $serverId, string $domain, array $usage): void
{
    \WHMCS\Database\Capsule::table('tblhosting')
        ->where('server', $serverId)
        ->where('domain', $domain)
        ->update($usage + ['lastupdate' => \WHMCS\Database\Capsule::raw('now()')]);
}

/**
 * WHMCS's module log (System Logs > Module Log), when it is there: outside WHMCS (tests) there is
 * none unless the caller defines one. $secrets are blanked by WHMCS wherever they appear.
 *
 * @param list<string> $secrets
 */
function panel247_log(string $action, mixed $request, mixed $response, mixed $processed, array $secrets): void
{
    if (function_exists('logModuleCall')) {
        logModuleCall(PANEL247_MODULE, $action, $request, $response, $processed, $secrets);
    }
}

/**
 * Every value that must not reach a log: the token, the server's password and the service's
 * password.
 *
 * @return list<string>
 */
function panel247_secretsOf(array $params): array
{
    $secrets = [];
    foreach (['serveraccesshash', 'serverpassword', 'password'] as $name) {
        $secrets = array_merge($secrets, panel247_secretForms(panel247_text($params[$name] ?? '')));
    }
    return array_values(array_unique($secrets));
}

/**
 * A secret as it may appear in a log entry: as typed, trimmed, form-encoded (a request body) and
 * JSON-escaped (a raw answer, where "/" is "\/"). WHMCS blanks each of them.
 *
 * @return list<string>
 */
function panel247_secretForms(string $secret): array
{
    $json = json_encode($secret, JSON_INVALID_UTF8_SUBSTITUTE);
    $forms = [$secret, trim($secret), urlencode($secret), rawurlencode($secret), $json === false ? '' : substr($json, 1, -1)];
    return array_values(array_unique(array_filter($forms, static fn (string $form): bool => $form !== '')));
}

/** The params as logged with a failed action's outcome. */
function panel247_maskedParams(array $params): array
{
    foreach (['serveraccesshash', 'serverpassword', 'password'] as $name) {
        if (isset($params[$name]) && $params[$name] !== '') {
            $params[$name] = '********';
        }
    }
    // WHMCS passes objects (the service model) too: the log only needs the scalar details.
    return array_filter($params, static fn (mixed $value): bool => is_scalar($value) || $value === null);
}

/**
 * @param array<string, string> $fields
 * @return array<string, string>
 */
function panel247_maskedFields(array $fields): array
{
    if (isset($fields['password'])) {
        $fields['password'] = '********';
    }
    return $fields;
}

/** WHMCS's "Secure" box: true, 1, "1" or "on" (its form's value) depending on the version. */
function panel247_isTicked(mixed $value): bool
{
    if (is_bool($value)) {
        return $value;
    }
    return in_array(strtolower(trim(panel247_text($value))), ['1', 'on', 'yes', 'true'], true);
}

/** A parameter as text: WHMCS gives numbers and strings, and null for what is not set. */
function panel247_text(mixed $value): string
{
    return is_scalar($value) ? (string) $value : '';
}
