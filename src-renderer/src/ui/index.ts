// The shared primitives (README.md beside this file): import them from here.
export { Badge, type Tone } from './Badge';
export { Button, IconButton, type ButtonProps, type ButtonVariant } from './Button';
export { Callout } from './Callout';
export { Card, CardHeader } from './Card';
export { CodeBlock, copyText } from './CodeBlock';
export { cx } from './cx';
export { Dialog, type DialogProps } from './Dialog';
export { EmptyState } from './EmptyState';
export { Field } from './Field';
export { Menu, type MenuItem } from './Menu';
export { PageHeader } from './PageHeader';
export { Popover } from './Popover';
export { Switch } from './Switch';
export { TabPanel, Tabs, type TabItem } from './Tabs';
export { toast, Toaster } from './Toast';
export { Tooltip, TooltipProvider } from './Tooltip';
