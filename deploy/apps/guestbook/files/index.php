<?php
// The guestbook: the published messages and a form to sign it.
declare(strict_types=1);

require __DIR__ . '/lib.php';

$pdo = db();
$notice = '';
if ($_SERVER['REQUEST_METHOD'] === 'POST' && $pdo !== null) {
    $name = trim((string) ($_POST['name'] ?? ''));
    $message = trim((string) ($_POST['message'] ?? ''));
    if (!form_token_ok() || $name === '' || $message === '' || mb_strlen($name) > 100 || mb_strlen($message) > 2000) {
        http_response_code(400);
        $notice = t('invalid');
    } else {
        $approved = GB_MODERATE === '1' ? 0 : 1;
        $insert = $pdo->prepare('INSERT INTO guestbook_entries (name, message, approved) VALUES (?, ?, ?)');
        $insert->execute([$name, $message, $approved]);
        $notice = $approved ? t('thanks') : t('pending');
    }
}
if ($pdo === null) {
    http_response_code(503);
}

page_start(GB_SITE_TITLE);
echo '<h1>' . e(GB_SITE_TITLE) . '</h1>';
if (GB_WELCOME !== '') {
    echo '<p class="welcome">' . nl2br(e(GB_WELCOME)) . '</p>';
}
if ($notice !== '') {
    echo '<p class="notice" role="status">' . e($notice) . '</p>';
}
if ($pdo !== null) {
    $entries = $pdo->query(
        'SELECT name, message, created_at FROM guestbook_entries WHERE approved = 1 ORDER BY id DESC LIMIT 50'
    )->fetchAll(PDO::FETCH_ASSOC);
    if ($entries === []) {
        echo '<p>' . e(t('empty')) . '</p>';
    }
    echo '<ul class="entries">';
    foreach ($entries as $entry) {
        echo '<li><strong>' . e($entry['name']) . '</strong> <time>' . e($entry['created_at']) . '</time>'
            . '<p>' . nl2br(e($entry['message'])) . '</p></li>';
    }
    echo '</ul>';
    echo '<h2>' . e(t('sign')) . '</h2><form method="post">'
        . '<input type="hidden" name="token" value="' . e(form_token()) . '">'
        . '<label>' . e(t('name')) . ' <input name="name" maxlength="100" required></label>'
        . '<label>' . e(t('message')) . ' <textarea name="message" maxlength="2000" required></textarea></label>'
        . '<button>' . e(t('send')) . '</button></form>';
}
echo '<p><a href="admin.php">' . e(t('admin')) . '</a></p>';
page_end($pdo !== null);
