/**
 * What the customer remote publishes to the shell before its code loads (see frontends/shared/src/remote.ts):
 * it owns every path no other remote mounts, and these menu entries. Plain data: the build evaluates it.
 */
import type { RemoteManifestSource } from '@avatar-studio/shared';

export const manifest: RemoteManifestSource = {
  mounts: ['/'],
  navigation: [
    {
      labelKey: 'customer:conversations.nav',
      label: { en: 'Chats', es: 'Chats' },
      path: '/conversations',
      icon: 'messages',
    },
    {
      labelKey: 'customer:avatars.nav',
      label: { en: 'Avatars', es: 'Avatares' },
      path: '/avatars',
      icon: 'users',
    },
    {
      labelKey: 'customer:workflows.nav',
      label: { en: 'Workflows', es: 'Flujos de trabajo' },
      path: '/workflows',
      icon: 'route',
    },
    {
      labelKey: 'customer:templates.nav',
      label: { en: 'Templates', es: 'Plantillas' },
      path: '/templates',
      // Hidden while templates are switched off: the contracts' feature flags declaration owns '/templates'.
      icon: 'template',
    },
    {
      labelKey: 'customer:documents.nav',
      label: { en: 'Documents', es: 'Documentos' },
      path: '/documents',
      flag: 'documents_enabled',
      icon: 'file-text',
    },
    {
      labelKey: 'customer:superFetch.nav',
      label: { en: 'Super Fetch', es: 'Super Fetch' },
      path: '/super-fetch',
      flag: 'super_fetch',
      icon: 'rocket',
    },
    {
      labelKey: 'customer:ideas.topicsNav',
      label: { en: 'Topics', es: 'Temas' },
      path: '/topics',
      flag: 'topics_enabled',
      icon: 'bulb',
    },
    {
      labelKey: 'customer:ideas.hashtagsNav',
      label: { en: 'Hashtags', es: 'Hashtags' },
      path: '/hashtags',
      flag: 'hashtags_enabled',
      icon: 'hash',
    },
    {
      labelKey: 'customer:tutorials.nav',
      label: { en: 'Tutorials', es: 'Tutoriales' },
      path: '/tutorials',
      flag: 'tutorials_enabled',
      icon: 'video',
    },
    {
      labelKey: 'customer:chatWidget.nav',
      label: { en: 'Chat widget', es: 'Widget de chat' },
      path: '/chat-widget-generator',
      icon: 'message-chatbot',
    },
    {
      labelKey: 'customer:profile.nav',
      label: { en: 'My Profile', es: 'Mi perfil' },
      path: '/profile',
      menu: 'user',
      icon: 'user-circle',
    },
    {
      labelKey: 'customer:settings.nav',
      label: { en: 'Settings', es: 'Configuración' },
      path: '/settings',
      menu: 'user',
      icon: 'settings',
    },
  ],
};
