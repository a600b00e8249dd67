<?php

declare(strict_types=1);

/*
 * Runs one function of the Panel247 WHMCS module outside WHMCS, for tests.
 *
 *     php run-module.php FUNCTION < params.json
 *
 * FUNCTION is a module command without its prefix (CreateAccount, UsageUpdate, TestConnection…);
 * stdin holds WHMCS's $params as a JSON object (MetaData and ConfigOptions need none).
 *
 * stdout: the function's return value as JSON, one line ('success', an error string, or an array).
 * stderr: one line per event, a tag then JSON:
 *     logModuleCall {"module":…,"action":…,"request":…,"response":…,"processed":…}
 *         what the module sent to WHMCS's module log, with the secrets it named replaced by
 *         "***" as WHMCS does (a test can look for a token or password here: it must not be)
 *     tblhosting.update {"server":…,"domain":…,"diskusage":…,"disklimit":…,"bwusage":…,"bwlimit":…}
 *         a row UsageUpdate would write into WHMCS's tblhosting (lastupdate is WHMCS's now())
 *     harness-error …
 *
 * Exit 0 whatever the module answered (the caller reads the JSON); 2 when the harness could not
 * run it (no such function, stdin not a JSON object, a PHP error outside the module's own catch).
 * PHP warnings and notices are turned into errors so that a sloppy line fails a test instead of
 * passing by (deprecations are only printed, on stderr).
 */

const HARNESS_ERROR = 2;
const MODULE_COMMANDS = [
    'MetaData', 'ConfigOptions', 'CreateAccount', 'SuspendAccount', 'UnsuspendAccount', 'TerminateAccount',
    'ChangePackage', 'ChangePassword', 'ServiceSingleSignOn', 'UsageUpdate', 'TestConnection',
];

function harness_fail(string $message): never
{
    fwrite(STDERR, 'harness-error ' . $message . "\n");
    exit(HARNESS_ERROR);
}

function harness_event(string $tag, mixed $payload): void
{
    fwrite(STDERR, $tag . ' ' . json_encode($payload, JSON_UNESCAPED_SLASHES | JSON_UNESCAPED_UNICODE | JSON_INVALID_UTF8_SUBSTITUTE) . "\n");
}

/** WHMCS's scrubbing of a module log entry: every secret, wherever it appears in a string. */
function harness_scrub(mixed $value, array $secrets): mixed
{
    if (is_string($value)) {
        return $secrets === [] ? $value : str_replace($secrets, '***', $value);
    }
    if (is_array($value)) {
        return array_map(static fn (mixed $item): mixed => harness_scrub($item, $secrets), $value);
    }
    return $value;
}

/** The params as a JSON object from stdin; none for the functions that take none. */
function harness_params(string $command): array
{
    $input = stream_get_contents(STDIN);
    if ($input === false) {
        harness_fail('could not read stdin');
    }
    if (trim($input) === '' && in_array($command, ['MetaData', 'ConfigOptions'], true)) {
        return [];
    }
    try {
        $params = json_decode($input, true, 64, JSON_THROW_ON_ERROR);
    } catch (JsonException $error) {
        harness_fail('stdin is not JSON: ' . $error->getMessage());
    }
    if (!is_array($params) || ($params !== [] && array_is_list($params))) {
        harness_fail('stdin must be a JSON object of WHMCS params');
    }
    return $params;
}

$command = $argv[1] ?? '';
if (!in_array($command, MODULE_COMMANDS, true)) {
    harness_fail('usage: php run-module.php FUNCTION < params.json, FUNCTION one of ' . implode(', ', MODULE_COMMANDS));
}

// stdout carries only the JSON answer: whatever PHP itself prints goes to stderr.
ini_set('display_errors', 'stderr');
set_error_handler(static function (int $severity, string $message, string $file, int $line): bool {
    if (($severity & (E_DEPRECATED | E_USER_DEPRECATED)) !== 0) {
        return false; // a newer PHP's notice of things to come is not a failure of the module
    }
    throw new ErrorException($message, 0, $severity, $file, $line);
});
register_shutdown_function(static function (): void {
    $error = error_get_last();
    if ($error !== null && in_array($error['type'], [E_ERROR, E_PARSE, E_CORE_ERROR, E_COMPILE_ERROR], true)) {
        fwrite(STDERR, 'harness-error PHP fatal error: ' . $error['message'] . "\n");
        exit(HARNESS_ERROR);
    }
});

// What WHMCS defines before it includes a module.
define('WHMCS', true);
if (!function_exists('logModuleCall')) {
    function logModuleCall(
        string $module,
        string $action,
        mixed $requestString,
        mixed $responseData,
        mixed $processedData = '',
        array $replaceVars = [],
    ): void {
        $secrets = array_values(array_filter($replaceVars, static fn (mixed $s): bool => is_string($s) && $s !== ''));
        harness_event('logModuleCall', harness_scrub([
            'module' => $module,
            'action' => $action,
            'request' => $requestString,
            'response' => $responseData,
            'processed' => $processedData,
        ], $secrets));
    }
}

$params = harness_params($command);

try {
    require_once __DIR__ . '/../modules/servers/panel247/panel247.php';
    $function = 'panel247_' . $command;
    $result = $command === 'UsageUpdate'
        // WHMCS's database is not here: the rows are printed instead of written.
        ? $function($params, static function (int $serverId, string $domain, array $usage): void {
            harness_event('tblhosting.update', ['server' => $serverId, 'domain' => $domain] + $usage);
        })
        : $function($params);
} catch (Throwable $error) {
    harness_fail(get_class($error) . ': ' . $error->getMessage() . ' at ' . $error->getFile() . ':' . $error->getLine());
}

$json = json_encode($result, JSON_UNESCAPED_SLASHES | JSON_UNESCAPED_UNICODE | JSON_INVALID_UTF8_SUBSTITUTE);
if ($json === false) {
    harness_fail('the return value is not JSON-encodable: ' . json_last_error_msg());
}
fwrite(STDOUT, $json . "\n");
exit(0);
