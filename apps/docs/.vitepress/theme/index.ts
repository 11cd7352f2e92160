// The default theme, with styles for the pre-rendered diagrams and the repository pages' source note.
import DefaultTheme from 'vitepress/theme';
import './custom.css';

export default DefaultTheme;
