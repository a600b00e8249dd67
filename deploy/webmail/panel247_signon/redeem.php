<?php
// Panel247 WebMail sign-on, the server-to-server half: trades the one-time token the panel's
// "WebMail" button posted (field _p247_token) for the mailbox it opens, at the panel's
// POST {base}/webmail/redeem/ with the shared key (PANEL_WEBMAIL_KEY). A token works once and for
// 60 seconds; the panel answers 404 for a used, late or unknown one and 403 for a wrong key.
//
// The Roundcube plugin beside this file calls panel247_webmail_redeem(). Run from the command line
// it redeems one token: php redeem.php TOKEN, with PANEL247_REDEEM_URL and PANEL247_WEBMAIL_KEY in
// the environment, prints the mailbox and exits 0, or says why not and exits 1.
declare(strict_types=1);

/**
 * The mailbox ("user@domain") the token opens, or null when the panel refuses it (used, expired,
 * unknown, wrong key) or cannot be reached; $why says which.
 */
function panel247_webmail_redeem(string $redeemUrl, string $key, string $token, ?string &$why = null): ?string
{
    if ($redeemUrl === '' || strlen($key) < 32) {
        $why = 'not configured';
        return null;
    }
    // The panel's tokens are 43 base64url characters; anything else never leaves this machine.
    if (preg_match('/^[A-Za-z0-9_-]{20,100}$/', $token) !== 1) {
        $why = 'malformed token';
        return null;
    }
    $context = stream_context_create([
        'http' => [
            'method' => 'POST',
            // x-dd-request is the panel's API mark (its CSRF rule); the key proves this is the WebMail.
            'header' => "Content-Type: application/x-www-form-urlencoded\r\nAccept: application/json\r\nX-DD-Request: 1\r\n",
            'content' => http_build_query(['token' => $token, 'key' => $key]),
            'timeout' => 10,
            'ignore_errors' => true,
            'follow_location' => 0,
        ],
    ]);
    $body = @file_get_contents($redeemUrl, false, $context);
    if ($body === false) {
        $why = 'panel unreachable';
        return null;
    }
    $answer = json_decode($body, true);
    $user = is_array($answer) ? ($answer['data']['user'] ?? null) : null;
    if (!is_array($answer) || ($answer['system']['valid'] ?? false) !== true || !is_string($user)) {
        $why = 'refused';
        return null;
    }
    // An address Dovecot can take, and nothing that could smuggle a master-user separator in.
    if (preg_match('/^[a-z0-9._+-]{1,64}@[a-z0-9.-]{1,253}$/', $user) !== 1) {
        $why = 'unexpected answer';
        return null;
    }
    $why = null;
    return $user;
}

if (PHP_SAPI === 'cli' && realpath($_SERVER['SCRIPT_FILENAME'] ?? '') === __FILE__) {
    $why = null;
    $user = panel247_webmail_redeem(
        (string) getenv('PANEL247_REDEEM_URL'),
        (string) getenv('PANEL247_WEBMAIL_KEY'),
        $argv[1] ?? '',
        $why
    );
    if ($user === null) {
        fwrite(STDERR, "{$why}\n");
        exit(1);
    }
    echo $user, "\n";
    exit(0);
}
