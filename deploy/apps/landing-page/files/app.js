// Fills the page from config.json, which the installer wrote from the answers given at install time.
// Every value goes in as text (textContent), never as markup.
fetch('config.json', { cache: 'no-store' })
  .then((answer) => answer.json())
  .then((config) => {
    document.title = config.title;
    document.getElementById('title').textContent = config.title;
    document.getElementById('tagline').textContent = config.tagline;
    const contact = document.getElementById('contact');
    if (config.showContact === '1' && /^[^\s@]+@[^\s@]+$/.test(config.contactEmail)) {
      const link = document.createElement('a');
      link.href = `mailto:${config.contactEmail}`;
      link.textContent = 'Contact';
      contact.append(link);
      contact.hidden = false;
    }
  });
