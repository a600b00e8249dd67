<?php
/**
 * Panel247 → phpMyAdmin hand-off. The panel's "phpMyAdmin" button posts a one-time token here
 * (never a password). This script trades it, server to server, at the panel's
 * POST {base}/phpmyadmin/redeem/ with the shared key, puts the database login into phpMyAdmin's
 * sign-on session and sends the browser on to phpMyAdmin, which opens logged in. A token works
 * once and for 60 seconds: a reused or late one gets a plain error page.
 *
 * Settings come from the PHP-FPM pool's environment (deploy/phpmyadmin/php-fpm-pool.conf.template):
 *   PANEL247_REDEEM_URL      e.g. http://127.0.0.1:8247/p247/phpmyadmin/redeem/
 *   PANEL247_PHPMYADMIN_KEY  the panel's PANEL_PHPMYADMIN_KEY (32+ characters)
 *   PANEL247_SIGNON_SESSION  phpMyAdmin's SignonSession (default Panel247Signon)
 *   PANEL247_PHPMYADMIN_PATH where phpMyAdmin's index.php is, from here (default ./index.php)
 */
declare(strict_types=1);

function panel247_refuse(int $status, string $message): never
{
    http_response_code($status);
    header('Content-Type: text/html; charset=utf-8');
    header('Cache-Control: no-store');
    header("Content-Security-Policy: default-src 'none'");
    header('X-Content-Type-Options: nosniff');
    $text = htmlspecialchars($message, ENT_QUOTES | ENT_HTML5, 'UTF-8');
    echo "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>phpMyAdmin</title></head>\n"
        . "<body><h1>phpMyAdmin</h1><p id=\"panel247-signon-error\">{$text}</p></body></html>\n";
    exit;
}

$redeemUrl = (string) getenv('PANEL247_REDEEM_URL');
$key = (string) getenv('PANEL247_PHPMYADMIN_KEY');
$sessionName = (string) (getenv('PANEL247_SIGNON_SESSION') ?: 'Panel247Signon');
$phpmyadmin = (string) (getenv('PANEL247_PHPMYADMIN_PATH') ?: './index.php');

if (($_SERVER['REQUEST_METHOD'] ?? '') !== 'POST') {
    header('Allow: POST');
    panel247_refuse(405, 'Open phpMyAdmin from the control panel.');
}
if ($redeemUrl === '' || strlen($key) < 32) {
    panel247_refuse(500, 'The phpMyAdmin sign-on is not configured.');
}
$token = $_POST['token'] ?? '';
if (!is_string($token) || preg_match('/^[A-Za-z0-9_-]{20,100}$/', $token) !== 1) {
    panel247_refuse(400, 'This sign-on link is not valid. Open phpMyAdmin again from the control panel.');
}

// Server to server: the key proves this script is phpMyAdmin's; x-dd-request is the panel's API mark.
$context = stream_context_create([
    'http' => [
        'method' => 'POST',
        'header' => "Content-Type: application/x-www-form-urlencoded\r\nAccept: application/json\r\nX-DD-Request: 1\r\n",
        'content' => http_build_query(['token' => $token, 'key' => $key]),
        'timeout' => 10,
        'ignore_errors' => true,
        'follow_location' => 0,
    ],
]);
$body = @file_get_contents($redeemUrl, false, $context);
if ($body === false) {
    panel247_refuse(502, 'The control panel does not answer. Try again in a moment.');
}
$answer = json_decode($body, true);
$data = is_array($answer) ? ($answer['data'] ?? null) : null;
if (
    !is_array($answer)
    || ($answer['system']['valid'] ?? false) !== true
    || !is_array($data)
    || !isset($data['user'], $data['password'], $data['host'], $data['port'], $data['database'])
) {
    panel247_refuse(403, 'This sign-on has expired or was already used. Open phpMyAdmin again from the control panel.');
}

$secure = !empty($_SERVER['HTTPS']) && $_SERVER['HTTPS'] !== 'off';
// The same cookie settings as SignonCookieParams in config.inc.php.
session_set_cookie_params([
    'lifetime' => 0,
    'path' => '/',
    'domain' => '',
    'secure' => $secure,
    'httponly' => true,
    'samesite' => 'Lax',
]);
session_name($sessionName);
if (!session_start()) {
    panel247_refuse(500, 'The phpMyAdmin session could not be opened.');
}
// A fresh session id for every sign-on: an id planted earlier never carries a login.
session_regenerate_id(true);
$_SESSION = [
    'PMA_single_signon_user' => (string) $data['user'],
    'PMA_single_signon_password' => (string) $data['password'],
    'PMA_single_signon_host' => (string) $data['host'],
    'PMA_single_signon_port' => (string) $data['port'],
    // phpMyAdmin shows this database only.
    'PMA_single_signon_cfgupdate' => ['only_db' => (string) $data['database']],
];
session_write_close();

header('Cache-Control: no-store');
header(
    'Location: ' . $phpmyadmin . '?route=' . rawurlencode('/database/structure') . '&db=' . rawurlencode((string) $data['database']),
    true,
    303
);
