// Mantine's stylesheets, loaded by main.tsx before the first render rather than linked from
// index.html: a <link> there would hold the first paint of the login page's HTML frame (which has
// its own inline CSS) until these 30 KB arrive.
import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
